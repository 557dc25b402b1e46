import { useParams } from 'react-router-dom';
import { PageHeading } from '../../ui/page-heading';

/** /dashboard/projects/:id */
export function ProjectDetailPage() {
  const { id = '' } = useParams();
  return <PageHeading title="Project" subtitle={id} />;
}

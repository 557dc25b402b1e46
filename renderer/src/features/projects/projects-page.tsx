import { PageHeading } from '../../ui/page-heading';

/** /dashboard/projects */
export function ProjectsPage() {
  return <PageHeading title="Projects" subtitle="Manage your project assets in one place" />;
}

import { PageHeading } from '../../ui/page-heading';

/** /dashboard/scans */
export function ScansPage() {
  return <PageHeading title="AI Browser" />;
}

import { PageHeading } from '../../ui/page-heading';

/** /dashboard/reports */
export function ReportsPage() {
  return <PageHeading title="Reports" />;
}

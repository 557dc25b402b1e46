import { PageHeading } from '../../ui/page-heading';

/** /dashboard/support */
export function SupportPage() {
  return <PageHeading title="Support" />;
}

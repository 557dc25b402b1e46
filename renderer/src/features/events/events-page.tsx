import { PageHeading } from '../../ui/page-heading';

/** /dashboard/events */
export function EventsPage() {
  return <PageHeading title="Events" />;
}

import { PageHeading } from '../../ui/page-heading';

/** /dashboard/webhook */
export function WebhookPage() {
  return <PageHeading title="Webhook" />;
}

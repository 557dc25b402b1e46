import { PageHeading } from '../../ui/page-heading';

/** /dashboard/billing */
export function BillingPage() {
  return <PageHeading title="Plan & Billing" subtitle="Manage your subscription plan and billing details" />;
}

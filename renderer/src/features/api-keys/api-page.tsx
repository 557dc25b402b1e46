import { PageHeading } from '../../ui/page-heading';

/** /dashboard/api */
export function ApiPage() {
  return <PageHeading title="API" />;
}

import { PageHeading } from '../../ui/page-heading';

/** /dashboard/continuous-testing */
export function ContinuousTestingPage() {
  return <PageHeading title="Continuous Testing" />;
}

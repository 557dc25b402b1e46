import { PageHeading } from '../../ui/page-heading';

/** /dashboard/preferences */
export function PreferencesPage() {
  return <PageHeading title="Preferences" />;
}

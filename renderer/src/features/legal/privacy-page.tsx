import { PublicPagePlaceholder } from '../../ui/page-heading';

/** /privacy */
export function PrivacyPage() {
  return <PublicPagePlaceholder title="Privacy Policy" />;
}

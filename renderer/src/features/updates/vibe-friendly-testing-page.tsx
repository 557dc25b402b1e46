import { PublicPagePlaceholder } from '../../ui/page-heading';

/** /updates/vibe-friendly-testing */
export function VibeFriendlyTestingPage() {
  return <PublicPagePlaceholder title="Vibe-Friendly Testing" />;
}

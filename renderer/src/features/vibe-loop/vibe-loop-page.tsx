import { PublicPagePlaceholder } from '../../ui/page-heading';

/** /vibe-loop: the monitoring script guide, also labelled Live Browser Demo. */
export function VibeLoopPage() {
  return <PublicPagePlaceholder title="Vibe Loop" />;
}

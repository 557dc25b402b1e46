import { PublicPagePlaceholder } from '../../ui/page-heading';

/** /updates/vibe-competitors-comparison */
export function VibeCompetitorsComparisonPage() {
  return <PublicPagePlaceholder title="Vibe Competitors Comparison" />;
}

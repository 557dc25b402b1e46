import { PublicPagePlaceholder } from '../../ui/page-heading';

/** /updates/vibe-coding-apps */
export function VibeCodingAppsPage() {
  return <PublicPagePlaceholder title="Vibe Coding Apps" />;
}

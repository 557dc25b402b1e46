import { PublicPagePlaceholder } from '../../ui/page-heading';

/** /affiliate */
export function AffiliatePage() {
  return <PublicPagePlaceholder title="Affiliate Program" />;
}

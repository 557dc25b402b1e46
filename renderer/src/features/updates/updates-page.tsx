import { PublicPagePlaceholder } from '../../ui/page-heading';

/** /updates */
export function UpdatesPage() {
  return <PublicPagePlaceholder title="Updates" />;
}

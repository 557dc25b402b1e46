import { PublicPagePlaceholder } from '../../ui/page-heading';

/** /terms */
export function TermsPage() {
  return <PublicPagePlaceholder title="Terms of Use" />;
}

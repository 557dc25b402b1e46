import { PublicPagePlaceholder } from '../../ui/page-heading';

/** /use-cases */
export function UseCasesPage() {
  return <PublicPagePlaceholder title="Use Cases" />;
}

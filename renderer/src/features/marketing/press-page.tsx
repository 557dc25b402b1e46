import { PublicPagePlaceholder } from '../../ui/page-heading';

/** /press */
export function PressPage() {
  return <PublicPagePlaceholder title="Press Kit" />;
}

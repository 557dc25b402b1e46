import { useContext, useEffect } from 'react';
import { PrerenderHeadContext } from '../app/hydration';

/** Sets the window title to '{title} | vibeeval' (or 'vibeeval' with no title) while the page is shown. */
export function useDocumentTitle(title?: string) {
  const full = title ? `${title} | vibeeval` : 'vibeeval';
  // While prerendering there is no document: the page's <title> is written into its HTML instead.
  const head = useContext(PrerenderHeadContext);
  head?.setTitle(full);
  useEffect(() => {
    document.title = full;
  }, [full]);
}

import { useEffect } from 'react';

/** Sets the window title to '{title} | vibeeval' (or 'vibeeval' with no title) while the page is shown. */
export function useDocumentTitle(title?: string) {
  useEffect(() => {
    document.title = title ? `${title} | vibeeval` : 'vibeeval';
  }, [title]);
}

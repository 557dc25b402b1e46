import { useState } from 'react';

/**
 * True from the first time `open` is true: a dialog loaded on demand (React.lazy) is mounted then and stays mounted,
 * so the page's first load does not carry its code and its closing animation still plays.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  // Derived state, set while rendering (React re-renders at once, before committing).
  if (open && !opened) setOpened(true);
  return opened || open;
}

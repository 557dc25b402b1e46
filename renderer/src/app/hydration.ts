import { createContext, useSyncExternalStore } from 'react';

const subscribeNever = () => () => {};

/**
 * False while prerendering and during hydration, true from the render after: what depends on the visitor's
 * browser (stored choices, media queries, the clock, the address's fragment) is read only once this is true,
 * so the first client render matches the prerendered HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}

/**
 * A browser value that can change, read as `serverValue` while prerendering and hydrating, and as `read()`
 * from the render after (React re-renders once when the two differ).
 */
export function useClientValue<T>(subscribe: (onChange: () => void) => () => void, read: () => T, serverValue: T): T {
  return useSyncExternalStore(subscribe, read, () => serverValue);
}

/** What a prerendered page puts in its <head>, told while it renders (only the prerender provides it). */
export interface PrerenderHead {
  setTitle(title: string): void;
}

export const PrerenderHeadContext = createContext<PrerenderHead | null>(null);

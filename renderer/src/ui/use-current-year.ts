import { useClientValue } from '../app/hydration';

/** Replaced at build time (electron.vite.config.ts): the year the app was built. */
declare const __VIBEEVAL_BUILD_YEAR__: number;

const subscribeNever = () => () => {};
const BUILD_YEAR = typeof __VIBEEVAL_BUILD_YEAR__ === 'number' ? __VIBEEVAL_BUILD_YEAR__ : new Date().getFullYear();

/** The current year by the visitor's clock; the build's year in prerendered HTML and until hydration is done. */
export function useCurrentYear(): number {
  return useClientValue(subscribeNever, () => new Date().getFullYear(), BUILD_YEAR);
}

/** Replaced at build time (electron.vite.config.ts, from scripts/check-count.mjs): the checks the engine's registry holds. */
declare const __VIBEEVAL_CHECK_COUNT__: number;

/** How many security checks every scan runs, as the marketing pages say it. */
export const CHECK_COUNT: number = __VIBEEVAL_CHECK_COUNT__;

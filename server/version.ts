/** The product version, injected at build time from package.json (see electron.vite.config.ts). */
export const VERSION: string = typeof __VIBEEVAL_VERSION__ === 'string' ? __VIBEEVAL_VERSION__ : (process.env.npm_package_version ?? '0.0.0');

declare const __VIBEEVAL_VERSION__: string | undefined;

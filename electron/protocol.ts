import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { protocol, type Protocol } from 'electron';
import { prerenderedPageFile } from '../common/prerender';
import { APP_HOST, APP_SCHEME } from './app-origin';

/**
 * Registers `app:` as a standard, secure scheme. Standard: relative URLs, origins, localStorage and
 * CORS (the server allows the `app://vibeeval` origin) work as on https. Secure: a secure context.
 * It does not bypass CSP. Must run before the app's `ready` event, and only once.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);
}

/** The renderer's Content-Security-Policy: nothing but itself, plus the embedded server over HTTP and WebSocket. */
export function contentSecurityPolicy(serverOrigin: string): string {
  const server = new URL(serverOrigin);
  const websocket = `${server.protocol === 'https:' ? 'wss:' : 'ws:'}//${server.host}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    // Chakra UI (emotion) injects <style> tags at runtime.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src 'self' ${server.origin} ${websocket}`,
    // Reports open in a frame from the server (signed links; they set their own strict CSP).
    `frame-src ${server.origin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Files whose absence is a 404, not a client-side route: a missing script must not come back as HTML. */
const ASSET_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.css',
  '.map',
  '.json',
  '.wasm',
  '.txt',
  '.xml',
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.webp',
  '.avif',
  '.svg',
  '.ico',
  '.woff',
  '.woff2',
  '.ttf',
  '.otf',
]);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
};

export type AppRequestTarget = { kind: 'file'; path: string; spaFallback: boolean; prerendered?: string } | { kind: 'error'; status: 400 | 403 | 404 };

/**
 * Maps an app://vibeeval URL to a file under `rendererDir`. Percent-decoded `..` and separators that
 * would step outside the renderer folder are refused (403), whatever the URL parser left in the path.
 * `spaFallback` says whether a missing file should be answered with index.html (a client-side route);
 * `prerendered` is the route's prerendered page, served before index.html when the build wrote it.
 */
export function resolveAppRequest(requestUrl: string, rendererDir: string): AppRequestTarget {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { kind: 'error', status: 400 };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host.toLowerCase() !== APP_HOST) return { kind: 'error', status: 404 };

  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return { kind: 'error', status: 400 };
  }
  if (pathname.includes('\0')) return { kind: 'error', status: 400 };

  const root = resolve(rendererDir);
  const index = resolve(root, 'index.html');
  const page = prerenderedPageFile(pathname || '/');
  const prerendered = page ? resolve(root, page) : undefined;
  if (pathname === '/' || pathname === '') return { kind: 'file', path: index, spaFallback: false, prerendered };

  const path = resolve(root, `.${pathname}`);
  if (!path.startsWith(root + sep)) return { kind: 'error', status: 403 };
  return { kind: 'file', path, spaFallback: !ASSET_EXTENSIONS.has(extname(path).toLowerCase()), prerendered };
}

export interface AppProtocolOptions {
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** The embedded server's origin, allowed in the CSP's connect-src. */
  serverOrigin: string;
  /** Reads a file; injectable for tests. */
  read?: (path: string) => Promise<Uint8Array>;
}

/** The `protocol.handle` handler for app://vibeeval: the renderer's files, with the CSP on every response. */
export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  const read = options.read ?? ((path: string) => readFile(path));
  const csp = contentSecurityPolicy(options.serverOrigin);
  const index = resolve(options.rendererDir, 'index.html');
  const headers = (contentType: string) => ({
    'content-type': contentType,
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  });
  const plain = (status: number, text: string) => new Response(text, { status, headers: headers('text/plain; charset=utf-8') });

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method Not Allowed');
    const target = resolveAppRequest(request.url, options.rendererDir);
    if (target.kind === 'error') return plain(target.status, target.status === 403 ? 'Forbidden' : target.status === 400 ? 'Bad Request' : 'Not Found');

    let path = target.path;
    let body: Uint8Array | null = null;
    try {
      // A page the build prerendered paints before its scripts run (a folder or file of that name never wins).
      if (target.prerendered) {
        path = target.prerendered;
        body = await readIfFile(read, path);
      }
      if (body === null) {
        path = target.path;
        body = await readIfFile(read, path);
      }
      if (body === null && target.spaFallback) {
        path = index;
        body = await readIfFile(read, path);
      }
    } catch (error) {
      console.error(`vibeeval: could not read ${path}: ${(error as Error).message}`);
      return plain(500, 'Internal Error');
    }
    if (body === null) {
      return path === index ? plain(404, 'The vibeeval renderer is not built: run `npm run build`.') : plain(404, 'Not Found');
    }
    const contentType = CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers: headers(contentType) });
  };
}

/** The file's bytes, or null when there is no file at `path` (missing, or a directory). */
async function readIfFile(read: (path: string) => Promise<Uint8Array>, path: string): Promise<Uint8Array | null> {
  try {
    return await read(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/** Serves the renderer on app://vibeeval in `target` (the default session's protocol). */
export function serveAppProtocol(target: Protocol, options: AppProtocolOptions): void {
  target.handle(APP_SCHEME, createAppProtocolHandler(options));
}

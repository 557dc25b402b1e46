import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local site whose pages navigate away by script, for the proposal tests. */
export interface RestlessSite {
  url: string;
  close(): Promise<void>;
}

const page = (title: string, script: string) =>
  `<!doctype html><title>${title}</title><nav><a href="/elsewhere">Elsewhere</a> <a href="/about">About</a></nav><h1>${title}</h1>` +
  `<form><input name="q" required><button>Search</button></form><script>${script}</script>`;

/**
 * `/` goes to `/elsewhere` once it has loaded (`location.href = '/elsewhere'`); `/restless` navigates again as soon
 * as it starts, for ever; `/drifting?after=<ms>` (and every page it links to) moves to a new address that many
 * milliseconds after each load, so it moves while being read, clicked or filled. Other paths stay put.
 */
export async function startRestlessSite(): Promise<RestlessSite> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const after = Math.min(Number(url.searchParams.get('after')) || 0, 5_000);
    response.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    if (url.pathname === '/') response.end(page('Home', "addEventListener('load', () => { location.href = '/elsewhere'; });"));
    else if (url.pathname === '/restless') response.end(page('Restless', "location.href = '/restless?n=' + Date.now();"));
    else if (after > 0) response.end(page(`Drifting ${url.pathname}`, `setTimeout(() => { location.href = '/drift-' + Date.now() + '?after=${after}'; }, ${after});`));
    else response.end(page(url.pathname === '/elsewhere' ? 'Elsewhere' : 'About', ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

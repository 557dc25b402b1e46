import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../../tests/fixtures/sites';
import { findChromium } from '../browser';
import { render } from './render';

const browser = findChromium();
if (browser.path === null) console.warn(`render.test.ts skipped: ${browser.reason}`);

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe.skipIf(browser.path === null)('render', () => {
  it('finds client-side routes, the requests the app makes and its storage', async () => {
    site = await startFixtureSite('spa');
    const result = await render({ executablePath: browser.path!, urls: [site.url], origin: site.origin, policy: { allowPrivate: true } });
    expect(result.status).toBe('done');
    const routes = result.routes.map((route) => new URL(route).pathname).sort();
    expect(routes).toEqual(expect.arrayContaining(['/', '/settings', '/tasks']));
    expect(result.requests.some((request) => request.resourceType === 'script' && request.url.endsWith('/assets/index-B3kq9XzA.js'))).toBe(true);
  });

  it('blocks requests to private addresses when the policy refuses them', async () => {
    site = await startFixtureSite('spa');
    const result = await render({
      executablePath: browser.path!,
      urls: [site.url],
      origin: site.origin,
      policy: { allowPrivate: false },
    });
    // The page itself is refused, so nothing of the app is seen.
    expect(result.routes.map((route) => new URL(route).pathname)).not.toContain('/tasks');
    expect(result.consoleErrors.join('\n')).toMatch(/ERR_BLOCKED_BY_CLIENT/);
  });
});

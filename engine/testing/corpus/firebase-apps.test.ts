// The Firebase corpus apps are judged on what the stand-in answered, not on a host that could not be reached: every
// Firebase probe of their scans gets an HTTP answer, the controls' locked rules answer 401/403 to the probes of the
// service they lock, and the vulnerable apps' open service answers 200.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../types';
import { scan } from '../../scan';
import { APPS } from './apps/firebase';
import { serveApp } from './harness';

const SERVICE: Array<[RegExp, 'firestore' | 'database' | 'storage']> = [
  [/^https:\/\/firestore\.googleapis\.com\//, 'firestore'],
  [/^https:\/\/firebasestorage\.googleapis\.com\//, 'storage'],
  [/^https:\/\/[^/]+\.(firebaseio\.com|firebasedatabase\.app)\//, 'database'],
];
const serviceOf = (url: string) => SERVICE.find(([pattern]) => pattern.test(url))?.[1];

async function firebaseExchanges(app: (typeof APPS)[number]): Promise<Exchange[]> {
  const served = await serveApp(app);
  const seen: Exchange[] = [];
  try {
    await scan(
      `${served.ctx.origin}/`,
      { render: false },
      {
        addressPolicy: { allowPrivate: true },
        chromiumPath: null,
        trustedCa: [served.ca!],
        resolveHost: served.resolveHost,
        onExchange: (exchange) => {
          if (serviceOf(exchange.url)) seen.push(exchange);
        },
      },
    );
  } finally {
    await served.close();
  }
  return seen;
}

describe('Firebase corpus apps', () => {
  it('get answers from the stand-in for every Firebase probe: locked services 401/403, open ones 200', async () => {
    const runs = await Promise.all(APPS.map(async (app) => ({ app, exchanges: await firebaseExchanges(app) })));
    for (const { app, exchanges } of runs) {
      expect(exchanges.length, app.id).toBeGreaterThan(0);
      expect(
        exchanges.filter((e) => e.error || e.status === 0).map((e) => `${e.url}: ${e.error}`),
        app.id,
      ).toEqual([]);
      // Exchanges on a resumed TLS session carry no certificate details; those that do must be verified.
      expect(
        exchanges.some((e) => e.tls?.authorized === true),
        app.id,
      ).toBe(true);
      expect(
        exchanges.filter((e) => e.tls && !e.tls.authorized).map((e) => e.url),
        app.id,
      ).toEqual([]);
      for (const [service, rules] of Object.entries(app.firebase!.rules ?? {})) {
        const statuses = new Set(exchanges.filter((e) => serviceOf(e.url) === service).map((e) => e.status));
        expect([...statuses], `${app.id} ${service}`).toEqual(rules === 'locked' ? [service === 'database' ? 401 : 403] : [200]);
      }
    }
  });
});

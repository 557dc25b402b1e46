// A signed-in scan's outputs, searched for the test accounts' passwords and every token the project issued: the scan
// result (its JSON, findings, warnings and coverage), each report format and every exchange the scan hands to its
// observer (the server's event log). None may hold one. (PDF is printed from the HTML report, searched here.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanResult } from '../../common/scan';
import { renderCsv, renderHtml, renderJson, renderSarif } from '../report/index';
import { scan } from '../scan';
import { APPS } from '../testing/corpus/apps/signed-in';
import { APPS as API_APPS } from '../testing/corpus/apps/signed-in-api';
import { serveApp, type ServedApp } from '../testing/corpus/harness';
import type { Exchange } from '../types';

const app = APPS.find((a) => a.id === 'vite-supabase-signed-in-documents-bucket-any-user')!;

describe('a signed-in scan keeps passwords and tokens out of every output', () => {
  let served: ServedApp;
  let result: ScanResult;
  const exchanges: Exchange[] = [];
  beforeAll(async () => {
    served = await serveApp({ ...app, supabase: { ...app.supabase, functions: {} } });
    result = await scan(`${served.ctx.origin}/`, { render: false }, { addressPolicy: { allowPrivate: true }, chromiumPath: null, accounts: app.accounts, onExchange: (e) => exchanges.push(e) });
  }, 120_000);
  afterAll(() => served?.close());

  it('signed in as both accounts, reported what one reads of the other, and signed out', () => {
    expect(result.coverage?.signIns?.map((s) => s.signedIn)).toEqual([true, true]);
    expect(result.findings.filter((f) => f.checkId === 'supabase-cross-user-read').map((f) => f.url)).toEqual([expect.stringContaining('/storage/v1/object/list/documents')]);
    // Two sign-ins and two sign-outs; no refresh in a scan this short.
    expect(served.supabaseAuth!().calls).toBe(4);
  });

  it('holds no password or token in the result, the reports, the warnings or the recorded exchanges', () => {
    const passwords = app.accounts!.map((a) => a.password);
    const tokens = served.supabaseAuth!().tokens;
    expect(tokens.length).toBe(4);
    const outputs: Record<string, string> = {
      result: JSON.stringify(result),
      warnings: result.warnings.join('\n'),
      json: renderJson(result),
      html: renderHtml(result),
      sarif: renderSarif(result),
      csv: renderCsv(result),
      exchanges: JSON.stringify(exchanges),
    };
    const leaks = Object.entries(outputs).flatMap(([name, text]) => [...passwords, ...tokens].filter((secret) => text.includes(secret)).map((secret) => `${name}: ${secret.slice(0, 6)}…`));
    expect(leaks).toEqual([]);
    // The evidence names the account that sent the request.
    expect(outputs.json).toContain(app.accounts![0]!.login);
    // The coverage says how each sign-in went, in the reports too.
    expect(outputs.csv).toContain(`# Sign-in: ${app.accounts![1]!.login}: signed in (supabase)`);
    expect(outputs.html).toContain('<h3>Sign-ins</h3>');
  });
});

// The site's own API gets the account's Supabase access token as its bearer: the same outputs, searched again.
describe("a signed-in scan of the site's own API keeps passwords and tokens out of every output", () => {
  const apiApp = API_APPS.find((a) => a.id === 'vite-supabase-signed-in-api-order-by-id')!;
  let served: ServedApp;
  let result: ScanResult;
  const exchanges: Exchange[] = [];
  beforeAll(async () => {
    served = await serveApp(apiApp);
    result = await scan(`${served.ctx.origin}/`, { render: false }, { addressPolicy: { allowPrivate: true }, chromiumPath: null, accounts: apiApp.accounts, onExchange: (e) => exchanges.push(e) });
  }, 120_000);
  afterAll(() => served?.close());

  it('sent the API its bearer, reported the order read by id, and holds no password or token anywhere', () => {
    expect(result.findings.filter((f) => f.checkId === 'api-cross-user-read').map((f) => f.url)).toEqual([expect.stringContaining('/api/orders/:id')]);
    // The API requests went with the account's (masked) bearer.
    const bearer = (e: Exchange) => Object.entries(e.requestHeaders).find(([name]) => name.toLowerCase() === 'authorization')?.[1] ?? '';
    expect(exchanges.filter((e) => e.url.includes('/api/orders/') && /^Bearer /.test(bearer(e))).length).toBeGreaterThan(0);
    const secrets = [...apiApp.accounts!.map((a) => a.password), ...served.supabaseAuth!().tokens];
    expect(served.supabaseAuth!().tokens.length).toBeGreaterThanOrEqual(4);
    const outputs: Record<string, string> = {
      result: JSON.stringify(result),
      json: renderJson(result),
      html: renderHtml(result),
      sarif: renderSarif(result),
      csv: renderCsv(result),
      exchanges: JSON.stringify(exchanges),
    };
    const leaks = Object.entries(outputs).flatMap(([name, text]) => secrets.filter((secret) => text.includes(secret)).map((secret) => `${name}: ${secret.slice(0, 6)}…`));
    expect(leaks).toEqual([]);
  });
});

// A signed-in scan's outputs, searched for the test accounts' passwords and every token the project issued: the scan
// result (its JSON, findings, warnings and coverage), each report format and every exchange the scan hands to its
// observer (the server's event log). None may hold one. (PDF is printed from the HTML report, searched here.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanResult } from '../../common/scan';
import { renderCsv, renderHtml, renderJson, renderSarif } from '../report/index';
import { scan } from '../scan';
import { APPS } from '../testing/corpus/apps/signed-in';
import { APPS as FIREBASE_APPS, APPS as METHOD_APPS } from '../testing/corpus/apps/signed-in-methods';
import { APPS as ACTIVE_APPS } from '../testing/corpus/apps/signed-in-active';
import { APPS as API_APPS } from '../testing/corpus/apps/signed-in-api';
import { serveApp, type ServedApp } from '../testing/corpus/harness';
import type { Exchange } from '../types';

/** Every output of a scan a secret could leak into: the result (its warnings also alone), each report, the exchanges. */
function outputsOf(result: ScanResult, exchanges: readonly Exchange[]): Record<string, string> {
  return {
    result: JSON.stringify(result),
    warnings: result.warnings.join('\n'),
    json: renderJson(result),
    html: renderHtml(result),
    sarif: renderSarif(result),
    csv: renderCsv(result),
    exchanges: JSON.stringify(exchanges),
  };
}

const app = APPS.find((a) => a.id === 'vite-supabase-signed-in-documents-bucket-any-user')!;

describe('a signed-in scan keeps passwords and tokens out of every output', () => {
  let served: ServedApp;
  let result: ScanResult;
  const exchanges: Exchange[] = [];
  beforeAll(async () => {
    served = await serveApp({ ...app, supabase: { ...app.supabase, functions: {} } });
    result = await scan(
      `${served.ctx.origin}/`,
      { render: false },
      { addressPolicy: { allowPrivate: true }, chromiumPath: null, accounts: app.accounts, onExchange: (e) => exchanges.push(e) },
    );
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
    const outputs = outputsOf(result, exchanges);
    const leaks = Object.entries(outputs).flatMap(([name, text]) =>
      [...passwords, ...tokens].filter((secret) => text.includes(secret)).map((secret) => `${name}: ${secret.slice(0, 6)}…`),
    );
    expect(leaks).toEqual([]);
    // The evidence names the account that sent the request.
    expect(outputs.json).toContain(app.accounts![0]!.login);
    // The coverage says how each sign-in went, in the reports too.
    expect(outputs.csv).toContain(`# Sign-in: ${app.accounts![1]!.login}: signed in (supabase)`);
    expect(outputs.html).toContain('<h3>Sign-ins</h3>');
  });
});

describe('a Firebase signed-in scan keeps passwords and ID tokens out of every output', () => {
  const fbApp = FIREBASE_APPS.find((a) => a.id === 'vite-firebase-signed-in-rtdb-any-user')!;
  let served: ServedApp;
  let result: ScanResult;
  const exchanges: Exchange[] = [];
  beforeAll(async () => {
    served = await serveApp(fbApp);
    result = await scan(
      `${served.ctx.origin}/`,
      { render: false },
      {
        addressPolicy: { allowPrivate: true },
        chromiumPath: null,
        accounts: fbApp.accounts,
        trustedCa: [served.ca!],
        resolveHost: served.resolveHost,
        onExchange: (e) => exchanges.push(e),
      },
    );
  }, 120_000);
  afterAll(() => served?.close());

  it('signed in with Firebase, found the cross-user read, and leaked nothing', () => {
    expect(result.coverage?.signIns?.map((s) => s.method)).toEqual(['firebase', 'firebase']);
    expect(result.findings.filter((f) => f.checkId === 'firebase-cross-user-read').length).toBe(1);
    const secrets = [...fbApp.accounts!.map((a) => a.password), ...served.firebaseTokens!()];
    expect(served.firebaseTokens!().length).toBeGreaterThanOrEqual(4);
    const outputs = outputsOf(result, exchanges);
    const leaks = Object.entries(outputs).flatMap(([name, text]) => secrets.filter((secret) => text.includes(secret)).map((secret) => `${name}: ${secret.slice(0, 6)}…`));
    expect(leaks).toEqual([]);
    expect(outputs.csv).toContain(`# Sign-in: ${fbApp.accounts![0]!.login}: signed in (firebase)`);
  });
});

describe("a scan signed in through the site's own login API or form keeps passwords, tokens and cookies out of every output", () => {
  /** The session ids the stand-in apps issue (as token or connect.sid cookie): s<n>.<22 base64url characters>. */
  const SESSION_ID = /s\d{1,3}\.[\w-]{22}/;
  for (const id of ['vite-api-signed-in-json-login-invoice-any-user', 'express-signed-in-form-invoice-any-user']) {
    it(
      id,
      async () => {
        const target = METHOD_APPS.find((a) => a.id === id)!;
        const served = await serveApp(target);
        const exchanges: Exchange[] = [];
        try {
          const result = await scan(
            `${served.ctx.origin}/`,
            { render: false },
            { addressPolicy: { allowPrivate: true }, chromiumPath: null, accounts: target.accounts, onExchange: (e) => exchanges.push(e) },
          );
          expect(result.coverage?.signIns?.every((s) => s.signedIn)).toBe(true);
          // The login API's app serves its records as JSON (the API check's), the form app as pages.
          expect(result.findings.some((f) => f.checkId === (id.startsWith('vite-api') ? 'api-cross-user-read' : 'signed-in-cross-user-page'))).toBe(true);
          const outputs = outputsOf(result, exchanges);
          const leaks = Object.entries(outputs).flatMap(([name, text]) => [
            ...target.accounts!.filter((a) => text.includes(a.password)).map(() => `${name}: a password`),
            ...(SESSION_ID.test(text) ? [`${name}: ${SESSION_ID.exec(text)![0].slice(0, 6)}…`] : []),
          ]);
          expect(leaks).toEqual([]);
          // The requests as the accounts did carry a session (masked in what was kept).
          expect(exchanges.some((e) => /^(?:Bearer |connect\.sid=)/.test(e.requestHeaders.authorization ?? e.requestHeaders.cookie ?? ''))).toBe(true);
        } finally {
          await served.close();
        }
      },
      120_000,
    );
  }
});

describe("an active scan's throwaway account: named everywhere, its password and tokens nowhere", () => {
  const open = ACTIVE_APPS.find((a) => a.id === 'vite-supabase-signup-open-profiles-any-user')!;
  let served: ServedApp;
  let result: ScanResult;
  const exchanges: Exchange[] = [];
  beforeAll(async () => {
    served = await serveApp(open);
    result = await scan(
      `${served.ctx.origin}/`,
      { render: false, active: true },
      { addressPolicy: { allowPrivate: true }, chromiumPath: null, onExchange: (e) => exchanges.push(e) },
    );
  }, 120_000);
  afterAll(() => served?.close());

  it('signed up once, read as the new account, reported what it reads, and signed out', () => {
    const { calls, created } = served.supabaseSignUps!();
    expect(calls).toBe(1);
    expect(created).toHaveLength(1);
    expect(result.coverage?.signIns).toEqual([
      { account: created[0]!.email, signedIn: true, method: 'supabase', throwaway: true, reason: expect.stringContaining('Authentication > Users') as unknown },
    ]);
    const findings = result.findings.filter((f) => f.checkId === 'supabase-signup-read');
    expect(findings.map((f) => [f.title, f.severity, f.cwe])).toEqual([['Anyone can sign up and read profiles', 'high', 285]]);
    expect(findings[0]!.detail).toContain(created[0]!.email);
    // Sign-in by sign-up, and one sign-out: the new account's only other write.
    expect(served.supabaseAuth!().calls).toBe(1);
    expect(served.writes()).toEqual([]);
  });

  it('holds neither its password nor its tokens in the result, the reports, the warnings or the exchanges', () => {
    const { created } = served.supabaseSignUps!();
    const secrets = [created[0]!.password, ...served.supabaseAuth!().tokens];
    expect(secrets.length).toBe(3);
    const outputs = outputsOf(result, exchanges);
    const leaks = Object.entries(outputs).flatMap(([name, text]) => secrets.filter((secret) => text.includes(secret)).map((secret) => `${name}: ${secret.slice(0, 6)}…`));
    expect(leaks).toEqual([]);
    // The address is named, in the reports too, so the owner can delete the account.
    for (const name of ['json', 'html', 'sarif', 'csv']) expect(outputs[name], name).toContain(created[0]!.email);
    expect(exchanges.filter((e) => e.url.endsWith('/auth/v1/signup')).map((e) => e.body)).toEqual(['(withheld: a sign-in answer holds the session tokens)']);
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
    result = await scan(
      `${served.ctx.origin}/`,
      { render: false },
      { addressPolicy: { allowPrivate: true }, chromiumPath: null, accounts: apiApp.accounts, onExchange: (e) => exchanges.push(e) },
    );
  }, 120_000);
  afterAll(() => served?.close());

  it('sent the API its bearer, reported the order read by id, and holds no password or token anywhere', () => {
    expect(result.findings.filter((f) => f.checkId === 'api-cross-user-read').map((f) => f.url)).toEqual([expect.stringContaining('/api/orders/:id')]);
    // The API requests went with the account's (masked) bearer.
    const bearer = (e: Exchange) => Object.entries(e.requestHeaders).find(([name]) => name.toLowerCase() === 'authorization')?.[1] ?? '';
    expect(exchanges.filter((e) => e.url.includes('/api/orders/') && /^Bearer /.test(bearer(e))).length).toBeGreaterThan(0);
    const secrets = [...apiApp.accounts!.map((a) => a.password), ...served.supabaseAuth!().tokens];
    expect(served.supabaseAuth!().tokens.length).toBeGreaterThanOrEqual(4);
    const outputs = outputsOf(result, exchanges);
    const leaks = Object.entries(outputs).flatMap(([name, text]) => secrets.filter((secret) => text.includes(secret)).map((secret) => `${name}: ${secret.slice(0, 6)}…`));
    expect(leaks).toEqual([]);
  });
});

// Whole scans of apps whose Supabase sign-up is open, closed or asks for email confirmation: a passive scan never
// signs up, whatever the site says; an active one signs up only where a new account can sign in at once, and says
// in its coverage why it made none elsewhere.
import { afterEach, describe, expect, it } from 'vitest';
import { scanResultSchema } from '../../common/scan';
import { scan } from '../scan';
import { APPS } from '../testing/corpus/apps/signed-in-active';
import { serveApp, type ServedApp } from '../testing/corpus/harness';
import type { CorpusApp } from '../testing/corpus/types';

const app = (id: string): CorpusApp => APPS.find((a) => a.id === id)!;
const OPEN = app('vite-supabase-signup-open-profiles-any-user');

describe('the throwaway account in whole scans', () => {
  let served: ServedApp | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });
  const run = async (corpusApp: CorpusApp, active: boolean, accounts?: Array<{ login: string; password: string }>) => {
    served = await serveApp(corpusApp);
    return scan(`${served.ctx.origin}/`, { render: false, active }, { addressPolicy: { allowPrivate: true }, chromiumPath: null, accounts });
  };

  it('sends no sign-up without --active, even where sign-up is open and test accounts are given', async () => {
    const result = await run(OPEN, false, [{ login: 'maya.okafor@mail.example', password: 'Maya-Corpus-Pass-7' }]);
    expect(served!.supabaseSignUps!().calls).toBe(0);
    expect(result.coverage?.signIns?.map((line) => line.throwaway ?? false)).toEqual([false]);
    expect(result.findings.filter((f) => f.checkId === 'supabase-signup-read')).toEqual([]);
    // Not even the settings read: a passive scan has no use for it.
    expect(result.passed.map((p) => p.checkId)).not.toContain('supabase-signup-read');
    expect(served!.writes()).toEqual([]);
  }, 120_000);

  it('creates none when told not to (a retried attempt of a scan job), and says why', async () => {
    served = await serveApp(OPEN);
    const reason = 'No throwaway account was created: this is a retried attempt.';
    const result = await scan(`${served.ctx.origin}/`, { render: false, active: true }, { addressPolicy: { allowPrivate: true }, chromiumPath: null, noThrowaway: reason });
    expect(served.supabaseSignUps!().calls).toBe(0);
    expect(result.warnings).toContain(reason);
    expect(result.findings.filter((f) => f.checkId === 'supabase-signup-read')).toEqual([]);
    expect(served.writes()).toEqual([]);
  }, 120_000);

  it('creates none where new accounts must confirm their email, and says so', async () => {
    const result = await run(app('vite-supabase-clean-signup-confirm-profiles'), true);
    expect(served!.supabaseSignUps!().calls).toBe(0);
    expect(result.coverage?.signIns).toEqual([
      {
        account: 'throwaway account (not created)',
        signedIn: false,
        throwaway: true,
        reason: expect.stringContaining('must confirm its email address before it can sign in (mailer_autoconfirm is off)') as unknown,
      },
    ]);
    expect(result.findings.filter((f) => f.checkId === 'supabase-signup-read')).toEqual([]);
  }, 120_000);

  it('creates none where sign-up is closed, and says so', async () => {
    const result = await run(app('vite-supabase-clean-signup-closed-documents'), true);
    expect(served!.supabaseSignUps!().calls).toBe(0);
    expect(result.coverage?.signIns?.[0]?.reason).toContain('Sign-up is closed on http://127.0.0.1:');
    expect(served!.writes()).toEqual([]);
  }, 120_000);

  it('with two test accounts given, adds the throwaway as a third sign-in line, and both checks report', async () => {
    const accounts = [
      { login: 'maya.okafor@mail.example', password: 'Maya-Corpus-Pass-7' },
      { login: 'theo.lindqvist@mail.example', password: 'Theo-Corpus-Pass-8' },
    ];
    const result = await run(OPEN, true, accounts);
    expect(served!.supabaseSignUps!().calls).toBe(1);
    expect(result.coverage?.signIns?.map((line) => [line.signedIn, line.throwaway ?? false])).toEqual([
      [true, false],
      [true, false],
      [true, true],
    ]);
    expect(() => scanResultSchema.parse(result)).not.toThrow();
    expect(
      result.findings
        .filter((f) => f.url.endsWith('/rest/v1/profiles'))
        .map((f) => f.checkId)
        .sort(),
    ).toEqual(['supabase-cross-user-read', 'supabase-signup-read']);
    expect(served!.writes()).toEqual([]);
  }, 120_000);
});

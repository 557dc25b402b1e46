// What a signed-in scan says about each account when it could not sign in: the coverage line, and no finding built on
// a sign-in that did not happen.
import { afterEach, describe, expect, it } from 'vitest';
import { scan } from '../scan';
import { APPS } from '../testing/corpus/apps/signed-in';
import { serveApp, type ServedApp } from '../testing/corpus/harness';
import type { CorpusApp } from '../testing/corpus/types';
import { NO_SIGN_IN_METHOD } from './session-store';

const profiles = APPS.find((a) => a.id === 'vite-supabase-signed-in-profiles-any-user')!;

describe('sign-in coverage of a signed-in scan', () => {
  let served: ServedApp | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });
  const run = async (app: CorpusApp, accounts: Array<{ login: string; password: string }>) => {
    served = await serveApp(app);
    return scan(`${served.ctx.origin}/`, { render: false }, { addressPolicy: { allowPrivate: true }, chromiumPath: null, accounts });
  };

  it("reports a wrong password with Supabase's answer, and finds nothing as that account", async () => {
    const result = await run(profiles, [{ login: profiles.accounts![0]!.login, password: 'Wrong-Pass-123' }]);
    expect(result.coverage?.signIns).toEqual([
      { account: profiles.accounts![0]!.login, signedIn: false, method: 'supabase', reason: expect.stringContaining('Invalid login credentials') as unknown },
    ]);
    expect(result.findings.filter((f) => f.checkId === 'supabase-cross-user-read')).toEqual([]);
    expect(JSON.stringify(result)).not.toContain('Wrong-Pass-123');
  }, 120_000);

  it('says no sign-in method was found on a site without a Supabase project', async () => {
    const plain: CorpusApp = {
      id: 'plain',
      shape: 'static',
      title: 'plain',
      control: true,
      expect: [],
      routes: () => ({ '/': { body: '<!doctype html><title>Plain</title><p>Hello</p>' } }),
    };
    const result = await run(plain, [{ login: 'alice@example.test', password: 'Some-Pass-456' }]);
    expect(result.coverage?.signIns).toEqual([{ account: 'alice@example.test', signedIn: false, reason: NO_SIGN_IN_METHOD }]);
  }, 120_000);
});

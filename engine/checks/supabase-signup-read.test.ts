import { describe, expect, it } from 'vitest';
import { noSignUpReason, signUpPolicy } from '../signed-in/throwaway-reads';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { makeExchange, makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import type { Site, SiteAccount } from '../types';
import { supabaseSignupRead } from './supabase-signup-read';

const REF = 'abcdefghijklmnopqrst';
const HOST = `https://${REF}.supabase.co`;
const anon = fakeSupabaseKey(REF, 'anon');
const NEW_ID = '11111111-2222-4333-8444-555555555555';
const OTHER_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const THROWAWAY: SiteAccount = { login: 'vibeeval-0a1b2c3d4e5f@example.com', signedIn: true, userId: NEW_ID, throwaway: true };

const json = (url: string, value: unknown, status = 200): ExchangeInit => ({ url, status, body: JSON.stringify(value), contentType: 'application/json' });
const settings = (over: Record<string, unknown> = {}) =>
  json(`${HOST}/auth/v1/settings`, { external: { email: true, google: false }, disable_signup: false, mailer_autoconfirm: true, ...over });
const SETTINGS_KEY = `supabase-signup-read:settings:${REF}`;
const rowsKey = (table: string) => `supabase-signup-read:rows:${REF}:${table}:0`;
const listKey = (bucket: string) => `supabase-signup-read:list:${REF}:${bucket}:0`;

function siteWith(probes: Record<string, ExchangeInit>, options: { active?: boolean; accounts?: SiteAccount[] } = {}): Site {
  const site = makeSite({
    root: {
      url: 'https://app.test/',
      body: `<script>const c=Qt("${HOST}","${anon}");c.from("profiles").select("*");c.from("orders").select("*");c.storage.from("documents").list(u.id)</script>`,
    },
    options: { active: options.active ?? true },
    probes,
  });
  return { ...site, accounts: options.accounts ?? [THROWAWAY] };
}
const open = (extra: Record<string, ExchangeInit> = {}) => ({ [SETTINGS_KEY]: settings(), ...extra });

describe('supabase-signup-read', () => {
  it('plans nothing in a passive scan, or without the throwaway account', () => {
    expect(plannedProbes(supabaseSignupRead, siteWith({}, { active: false }))).toEqual([]);
    expect(supabaseSignupRead.followUpProbes!(siteWith(open(), { active: false }))).toEqual([]);
    expect(plannedProbes(supabaseSignupRead, siteWith({}, { accounts: [] }))).toEqual([]);
  });

  it("reads the project's Auth settings first, then each table and bucket as the throwaway account once sign-up is open", () => {
    expect(plannedProbes(supabaseSignupRead, siteWith({})).map((p) => `${p.method} ${p.url}`)).toEqual([`GET ${HOST}/auth/v1/settings`]);
    const follow = supabaseSignupRead.followUpProbes!(siteWith(open()));
    expect(follow.length).toBeGreaterThan(2);
    expect(follow.every((p) => p.as === 0 && (p.method === 'GET' || p.readOnly === true))).toBe(true);
    expect(follow.map((p) => p.key)).toEqual(expect.arrayContaining([rowsKey('profiles'), rowsKey('orders'), listKey('documents')]));
    // Closed, or open with email confirmation: no read as a new account, so no sign-up.
    expect(supabaseSignupRead.followUpProbes!(siteWith({ [SETTINGS_KEY]: settings({ disable_signup: true }) }))).toEqual([]);
    expect(supabaseSignupRead.followUpProbes!(siteWith({ [SETTINGS_KEY]: settings({ mailer_autoconfirm: false }) }))).toEqual([]);
  });

  it.each([
    ['open, auto-confirm', settings(), 'open'],
    ['open, no mailer_autoconfirm field (the sign-up answer decides)', json(HOST, { external: { email: true }, disable_signup: false }), 'open'],
    ['email confirmation on', settings({ mailer_autoconfirm: false }), 'confirm'],
    ['closed', settings({ disable_signup: true }), 'closed'],
    ['email sign-in off', settings({ external: { email: false, google: true } }), 'no-email'],
    ['not GoTrue', json(HOST, { ok: true }), 'unknown'],
    ['an error', { url: HOST, status: 401, body: '{"message":"Invalid API key"}' }, 'unknown'],
  ] as const)('settings: %s', (_name, answer, policy) => {
    expect(signUpPolicy(makeExchange(answer))).toBe(policy);
  });

  it.each([
    ['the new account reads only its own profile', { [rowsKey('profiles')]: json(HOST, [{ id: NEW_ID, email: THROWAWAY.login, full_name: null }]) }],
    ['nothing readable', { [rowsKey('profiles')]: json(HOST, []), [rowsKey('orders')]: json(HOST, []), [listKey('documents')]: json(HOST, []) }],
    ['its own folder only', { [listKey('documents')]: json(HOST, [{ name: NEW_ID, id: null }]) }],
    ['a catalogue with no owner column', { [rowsKey('orders')]: json(HOST, [{ id: 1, name: 'Mug', price_cents: 1900 }]) }],
  ])('no finding: %s', (_name, probes) => {
    const site = siteWith(open(probes));
    expect(supabaseSignupRead.appliesTo!(site)).toBe(true);
    expect(supabaseSignupRead.run(site)).toEqual([]);
  });

  it('no finding when the throwaway account did not sign in, or the scan is passive', () => {
    const rows = { [rowsKey('profiles')]: json(HOST, [{ id: OTHER_ID, email: 'bob@mail.example', phone: '+14155550199' }]) };
    const notSignedIn = siteWith(open(rows), { accounts: [{ ...THROWAWAY, signedIn: false, userId: undefined }] });
    expect(supabaseSignupRead.appliesTo!(notSignedIn)).toBe(false);
    expect(supabaseSignupRead.run(notSignedIn)).toEqual([]);
    expect(supabaseSignupRead.run(siteWith(open(rows), { active: false }))).toEqual([]);
  });

  it("reports another user's profile read by a brand-new account, rated by its data, naming the account", () => {
    const site = siteWith(
      open({
        [rowsKey('profiles')]: json(HOST, [
          { id: NEW_ID, email: THROWAWAY.login },
          { id: OTHER_ID, full_name: 'Bob Chen', email: 'bob.chen@mail.example', phone: '+14155550199' },
        ]),
      }),
    );
    const [finding, ...rest] = supabaseSignupRead.run(site);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ title: 'Anyone can sign up and read profiles', severity: 'high', url: `${HOST}/rest/v1/profiles` });
    expect(finding!.detail).toContain(THROWAWAY.login);
    expect(finding!.evidence.response).toContain('using (auth.uid() = id)');
    expect(JSON.stringify(finding)).not.toContain('bob.chen@mail.example');
  });

  it("reports rows of a people table whose ids are not user ids, and other users' folders", () => {
    const site = siteWith(
      open({ [rowsKey('profiles')]: json(HOST, [{ id: 7, display_name: 'Ana', email: 'ana@mail.example' }]), [listKey('documents')]: json(HOST, [{ name: OTHER_ID, id: null }]) }),
    );
    expect(supabaseSignupRead.run(site).map((f) => [f.title, f.severity])).toEqual([
      ['Anyone can sign up and read profiles', 'high'],
      ['Anyone can sign up and list other users\' files in bucket "documents"', 'high'],
    ]);
  });

  it('orders: an owner column of another user is at least medium', () => {
    const site = siteWith(open({ [rowsKey('orders')]: json(HOST, [{ id: 3, user_id: OTHER_ID, status: 'paid', total_cents: 4900 }]) }));
    expect(supabaseSignupRead.run(site).map((f) => f.severity)).toEqual(['medium']);
  });

  it('says why no account was created, from the settings answers alone', () => {
    expect(noSignUpReason(siteWith({}, { active: false }))).toBeUndefined();
    expect(noSignUpReason(siteWith({}))).toBe('The site shows no Supabase project with a public key to sign up to.');
    expect(noSignUpReason(siteWith({ [SETTINGS_KEY]: settings({ disable_signup: true }) }))).toBe(
      `Sign-up is closed on ${HOST} (disable_signup is on), so a stranger cannot get an account.`,
    );
    expect(noSignUpReason(siteWith({ [SETTINGS_KEY]: settings({ mailer_autoconfirm: false }) }))).toContain('must confirm its email address');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgrestStandIn, type PostgrestStandIn } from './postgrest-stand-in';

const KEY = 'stand-in-anon-key';
const auth = { apikey: KEY, Authorization: `Bearer ${KEY}` };

describe('PostgREST stand-in', () => {
  let standIn: PostgrestStandIn;
  beforeAll(async () => {
    standIn = await startPostgrestStandIn({
      anonKey: KEY,
      tables: {
        profiles: [
          { id: 1, email: 'a@example.test' },
          { id: 2, email: 'b@example.test' },
        ],
        notes: { rows: [{ id: 1 }], rls: true },
      },
      buckets: [
        { name: 'avatars', public: true, files: { 'a.txt': 'hello' } },
        { name: 'secret', public: false, visibleToAnon: false },
        { name: 'documents', public: false, visibleToAnon: false, listable: true, files: { 'u1/passport.pdf': 'x', 'u1/tax.pdf': 'y', 'readme.txt': 'z' } },
      ],
      functions: {
        get_users: { returns: [{ id: 1, email: 'a@example.test' }] },
        admin_only: { returns: [], anon: false },
        get_booking: { params: ['p_id'], returns: (args: Record<string, string>) => (args.p_id === 'b1' ? [{ id: 'b1', phone: '+15555550134' }] : []) },
        list_slots: { params: ['to_date', 'from_date'], returns: [] },
      },
    });
  });
  afterAll(() => standIn.close());

  it("answers GoTrue's public settings at /auth/v1/settings, behind the key check", async () => {
    const res = await fetch(`${standIn.url}/auth/v1/settings`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ external: { email: true }, disable_signup: false });
    expect((await fetch(`${standIn.url}/auth/v1/settings`)).status).toBe(401);
    const noAuth = await startPostgrestStandIn({ auth: false });
    try {
      expect((await fetch(`${noAuth.url}/auth/v1/settings`, { headers: auth })).status).toBe(404);
    } finally {
      await noAuth.close();
    }
  });

  it('counts rows on HEAD with Prefer: count=exact, without a body', async () => {
    const res = await fetch(`${standIn.url}/rest/v1/profiles?select=*`, { method: 'HEAD', headers: { ...auth, Prefer: 'count=exact' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe('0-1/2');
    expect(await res.text()).toBe('');
  });

  it('returns one row with limit=1 and an unknown total without count', async () => {
    const res = await fetch(`${standIn.url}/rest/v1/profiles?select=*&limit=1`, { headers: auth });
    expect(res.headers.get('content-range')).toBe('0-0/*');
    expect(await res.json()).toEqual([{ id: 1, email: 'a@example.test' }]);
  });

  it('answers RLS-protected tables with [] and */0', async () => {
    const res = await fetch(`${standIn.url}/rest/v1/notes?select=*`, { headers: { ...auth, Prefer: 'count=exact' } });
    expect([res.status, res.headers.get('content-range')]).toEqual([200, '*/0']);
    expect(await res.json()).toEqual([]);
  });

  it('rejects unknown tables and missing or wrong keys like the hosted gateway', async () => {
    const unknown = await fetch(`${standIn.url}/rest/v1/nope`, { headers: auth });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: string }).code).toBe('PGRST205');
    expect((await fetch(`${standIn.url}/rest/v1/profiles`)).status).toBe(401);
    expect((await fetch(`${standIn.url}/rest/v1/profiles`, { headers: { apikey: 'other' } })).status).toBe(401);
    expect((await fetch(`${standIn.url}/rest/v1/profiles`, { headers: { apikey: KEY, Authorization: 'Bearer other' } })).status).toBe(401);
  });

  it('serves the storage bucket endpoints', async () => {
    const list = await fetch(`${standIn.url}/storage/v1/bucket`, { headers: auth });
    expect(((await list.json()) as Array<{ id: string }>).map((b) => b.id)).toEqual(['avatars']);
    expect((await fetch(`${standIn.url}/storage/v1/bucket/avatars`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${standIn.url}/storage/v1/bucket/secret`, { headers: auth })).status).toBe(400);
    expect(await (await fetch(`${standIn.url}/storage/v1/object/public/avatars/a.txt`, { headers: auth })).text()).toBe('hello');
  });

  it('runs database functions on GET, refusing unknown ones and those anon may not execute', async () => {
    const call = (name: string) => fetch(`${standIn.url}/rest/v1/rpc/${name}`, { headers: auth });
    expect(await (await call('get_users')).json()).toEqual([{ id: 1, email: 'a@example.test' }]);
    const unknown = await call('nope');
    expect([unknown.status, ((await unknown.json()) as { code: string }).code]).toEqual([404, 'PGRST202']);
    expect((await call('admin_only')).status).toBe(401);
  });

  it('answers a call with the wrong arguments as PostgREST does: 404 PGRST202 with a hint naming the parameters', async () => {
    const call = async (path: string) => {
      const res = await fetch(`${standIn.url}/rest/v1/rpc/${path}`, { headers: auth });
      return [res.status, await res.json()] as const;
    };
    expect(await call('get_booking')).toEqual([
      404,
      {
        code: 'PGRST202',
        details: 'Searched for the function public.get_booking without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
        hint: 'Perhaps you meant to call the function public.get_booking(p_id)',
        message: 'Could not find the function public.get_booking without parameters in the schema cache',
      },
    ]);
    expect(await call('list_slots?day=1&limit=2')).toEqual([
      404,
      {
        code: 'PGRST202',
        details:
          'Searched for the function public.list_slots with parameters day, limit or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
        hint: 'Perhaps you meant to call the function public.list_slots(from_date, to_date)',
        message: 'Could not find the function public.list_slots(day, limit) in the schema cache',
      },
    ]);
    expect(await call('get_booking?p_id=b1')).toEqual([200, [{ id: 'b1', phone: '+15555550134' }]]);
    expect(await call('get_booking?p_id=zz')).toEqual([200, []]);
    expect((await call('nope'))[1]).toMatchObject({ code: 'PGRST202', hint: null });
  });

  it("lists one page of a bucket's objects with Storage's list call, only where a policy allows it", async () => {
    const list = (bucket: string, body: unknown) =>
      fetch(`${standIn.url}/storage/v1/object/list/${bucket}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const top = (await (await list('documents', { prefix: '', limit: 5, offset: 0 })).json()) as Array<{ name: string; id: string | null }>;
    expect(top.map((o) => [o.name, o.id === null])).toEqual([
      ['readme.txt', false],
      ['u1', true],
    ]);
    const inside = (await (await list('documents', { prefix: 'u1', limit: 1 })).json()) as Array<{ name: string }>;
    expect(inside.map((o) => o.name)).toEqual(['passport.pdf']);
    expect(await (await list('avatars', { prefix: '' })).json()).toEqual([]);
    expect(standIn.nonReads()).toEqual([]);
  });

  it('refuses and records writes', async () => {
    const res = await fetch(`${standIn.url}/rest/v1/profiles`, { method: 'POST', headers: auth, body: '{}' });
    expect(res.status).toBe(405);
    const upload = await fetch(`${standIn.url}/storage/v1/object/avatars/x.txt`, { method: 'POST', headers: auth, body: 'x' });
    expect(upload.status).toBe(405);
    expect(standIn.requests.at(-1)).toMatchObject({ method: 'POST', url: '/storage/v1/object/avatars/x.txt' });
    expect(standIn.nonReads().map((r) => r.url)).toEqual(['/rest/v1/profiles', '/storage/v1/object/avatars/x.txt']);
  });
});

describe('PostgREST stand-in, signed in (Supabase Auth and per-user policies)', () => {
  const U1 = { id: '0f8fad5b-d9cb-469f-a165-70867728950e', email: 'u1@example.test', password: 'pw-u1-stand-in' };
  const U2 = { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', email: 'u2@example.test', password: 'pw-u2-stand-in' };
  const ROWS = [
    { id: 1, user_id: U1.id },
    { id: 2, user_id: U2.id },
  ];
  let standIn: PostgrestStandIn;
  beforeAll(async () => {
    standIn = await startPostgrestStandIn({
      anonKey: KEY,
      users: [U1, U2],
      tables: { open: { rows: ROWS, read: 'public' }, members: { rows: ROWS, read: 'authenticated' }, own: { rows: ROWS, read: 'owner' } },
      buckets: [{ name: 'docs', public: false, visibleToAnon: false, signedInList: 'owner', files: { [`${U1.id}/a.pdf`]: 'a', [`${U2.id}/b.pdf`]: 'b' } }],
    });
  });
  afterAll(() => standIn.close());

  const token = async (grant: string, body: unknown) =>
    fetch(`${standIn.url}/auth/v1/token?grant_type=${grant}`, { method: 'POST', headers: { apikey: KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const signIn = async (user: typeof U1) =>
    (await (await token('password', { email: user.email, password: user.password })).json()) as { access_token: string; refresh_token: string; user: { id: string } };
  const rows = async (table: string, bearer = KEY) =>
    (await fetch(`${standIn.url}/rest/v1/${table}?select=*`, { headers: { apikey: KEY, Authorization: `Bearer ${bearer}` } })).json();

  it('signs users in, refuses a wrong password as GoTrue does, and refreshes', async () => {
    const session = await signIn(U1);
    expect(session.user.id).toBe(U1.id);
    const wrong = await token('password', { email: U1.email, password: 'nope' });
    expect([wrong.status, await wrong.json()]).toEqual([400, { error: 'invalid_grant', error_description: 'Invalid login credentials' }]);
    const refreshed = (await (await token('refresh_token', { refresh_token: session.refresh_token })).json()) as { access_token: string };
    expect(await rows('own', refreshed.access_token)).toEqual([ROWS[0]]);
    const user = await fetch(`${standIn.url}/auth/v1/user`, { headers: { apikey: KEY, Authorization: `Bearer ${refreshed.access_token}` } });
    expect(await user.json()).toMatchObject({ id: U1.id });
    // A refresh token is used once.
    expect((await token('refresh_token', { refresh_token: session.refresh_token })).status).toBe(400);
  });

  it('applies each policy per role and per user', async () => {
    const u1 = (await signIn(U1)).access_token;
    const u2 = (await signIn(U2)).access_token;
    expect(await rows('open')).toEqual(ROWS);
    expect(await rows('members')).toEqual([]);
    expect(await rows('members', u1)).toEqual(ROWS);
    expect(await rows('own')).toEqual([]);
    expect(await rows('own', u2)).toEqual([ROWS[1]]);
    const list = async (bearer: string) =>
      (
        (await (
          await fetch(`${standIn.url}/storage/v1/object/list/docs`, {
            method: 'POST',
            headers: { apikey: KEY, Authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
            body: '{"prefix":""}',
          })
        ).json()) as Array<{ name: string }>
      ).map((o) => o.name);
    expect(await list(KEY)).toEqual([]);
    expect(await list(u1)).toEqual([U1.id]);
    expect((await fetch(`${standIn.url}/rest/v1/own`, { headers: { apikey: KEY, Authorization: 'Bearer forged.token.here' } })).status).toBe(401);
  });

  it('counts sign-in, refresh and sign-out apart from writes', async () => {
    const { access_token } = await signIn(U2);
    const out = await fetch(`${standIn.url}/auth/v1/logout`, { method: 'POST', headers: { apikey: KEY, Authorization: `Bearer ${access_token}` } });
    expect(out.status).toBe(204);
    expect(standIn.signedOut()).toContain(U2.id);
    expect(standIn.nonReads()).toEqual([]);
    expect(standIn.authCalls().map((r) => r.url.split('?')[0])).toContain('/auth/v1/logout');
  });
});

describe('PostgREST stand-in, sign-up (closed, with email confirmation, auto-confirmed)', () => {
  const KEY = 'signup-anon-key';
  const EXISTING = { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', email: 'bob@example.test', password: 'Bob-Pass-2' };
  const standIns: PostgrestStandIn[] = [];
  afterAll(async () => {
    await Promise.all(standIns.map((s) => s.close()));
  });
  const start = async (signUp: 'closed' | 'confirm' | 'auto') => {
    const standIn = await startPostgrestStandIn({
      anonKey: KEY,
      users: [EXISTING],
      signUp,
      tables: { profiles: { rows: [{ id: EXISTING.id, email: EXISTING.email }], read: 'owner', owner: 'id', newUserRow: (u) => ({ id: u.id, email: u.email }) } },
    });
    standIns.push(standIn);
    return standIn;
  };
  const post = (standIn: PostgrestStandIn, path: string, body: unknown, bearer = KEY) =>
    fetch(`${standIn.url}${path}`, { method: 'POST', headers: { apikey: KEY, Authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const settings = async (standIn: PostgrestStandIn) => (await (await fetch(`${standIn.url}/auth/v1/settings`, { headers: { apikey: KEY } })).json()) as Record<string, unknown>;

  it('says in its settings whether sign-up is open and auto-confirmed', async () => {
    expect(await settings(await start('closed'))).toMatchObject({ disable_signup: true, mailer_autoconfirm: false, external: { email: true } });
    expect(await settings(await start('confirm'))).toMatchObject({ disable_signup: false, mailer_autoconfirm: false });
    expect(await settings(await start('auto'))).toMatchObject({ disable_signup: false, mailer_autoconfirm: true });
  });

  it('refuses a sign-up when closed, as GoTrue does', async () => {
    const standIn = await start('closed');
    const answer = await post(standIn, '/auth/v1/signup', { email: 'new@example.com', password: 'New-Pass-123' });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({ error_code: 'signup_disabled' });
    expect(standIn.signedUpUsers()).toEqual([]);
  });

  it('with confirmation on, creates a user who cannot sign in yet, and no session', async () => {
    const standIn = await start('confirm');
    const answer = (await (await post(standIn, '/auth/v1/signup', { email: 'new@example.com', password: 'New-Pass-123' })).json()) as Record<string, unknown>;
    expect(answer).not.toHaveProperty('access_token');
    expect(answer).toMatchObject({ email: 'new@example.com', confirmation_sent_at: expect.any(String) as unknown });
    const signIn = await post(standIn, '/auth/v1/token?grant_type=password', { email: 'new@example.com', password: 'New-Pass-123' });
    expect(await signIn.json()).toMatchObject({ error_code: 'email_not_confirmed' });
  });

  it('auto-confirmed: a session at once, the trigger row, no second account for the address, and sign-ups counted apart from writes', async () => {
    const standIn = await start('auto');
    const answer = (await (await post(standIn, '/auth/v1/signup', { email: 'new@example.com', password: 'New-Pass-123' })).json()) as {
      access_token: string;
      user: { id: string };
    };
    expect(answer.access_token).toEqual(expect.any(String));
    const own = await fetch(`${standIn.url}/rest/v1/profiles`, { headers: { apikey: KEY, Authorization: `Bearer ${answer.access_token}` } });
    expect(await own.json()).toEqual([{ id: answer.user.id, email: 'new@example.com' }]);
    const again = await post(standIn, '/auth/v1/signup', { email: 'new@example.com', password: 'Other-Pass-456' });
    expect(await again.json()).toMatchObject({ error_code: 'user_already_exists' });
    expect(standIn.signedUpUsers().map((u) => u.email)).toEqual(['new@example.com']);
    expect(standIn.signUps()).toHaveLength(2);
    expect(standIn.nonReads()).toEqual([]);
    expect(standIn.authCalls()).toEqual([]);
  });
});

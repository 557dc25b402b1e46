import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgrestStandIn, type PostgrestStandIn } from './postgrest-stand-in';

const KEY = 'stand-in-anon-key';
const auth = { apikey: KEY, Authorization: `Bearer ${KEY}` };

describe('PostgREST stand-in', () => {
  let standIn: PostgrestStandIn;
  beforeAll(async () => {
    standIn = await startPostgrestStandIn({
      anonKey: KEY,
      tables: { profiles: [{ id: 1, email: 'a@example.test' }, { id: 2, email: 'b@example.test' }], notes: { rows: [{ id: 1 }], rls: true } },
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
        details: 'Searched for the function public.list_slots with parameters day, limit or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
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
    expect(top.map((o) => [o.name, o.id === null])).toEqual([['readme.txt', false], ['u1', true]]);
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { startPostgrestStandIn, type PostgrestStandIn } from '../testing/postgrest-stand-in';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import type { ProbeRequest } from '../types';
import type { Site } from '../types';
import { describeReturn, supabaseRpcExposed } from './supabase-rpc-exposed';

const REF = 'abcdefghijklmnopqrst';
const anon = fakeSupabaseKey(REF, 'anon');
const BOOKING = '5b0c9a1e-3f2d-4c8b-9a7e-1d2c3b4a5f60';
const site = (script: string, probes: Record<string, ExchangeInit> = {}) => makeSite({ root: { url: 'https://app.test/', body: `<script>${script}</script>` }, probes });
const client = (url = `https://${REF}.supabase.co`) => `const c=Qt("${url}","${anon}");`;

describe('supabase-rpc-exposed', () => {
  it('no finding without a project or without rpc calls', () => {
    expect(supabaseRpcExposed.run(site('a.rpc("x")'))).toEqual([]);
    expect(supabaseRpcExposed.run(site(client()))).toEqual([]);
  });

  it('lists the functions as info and calls only those whose names do not act, with GET', () => {
    const s = site(`${client()}c.rpc("delete_user",{id:1});c.rpc('get_stats');c.rpc("sendInvite")`);
    const findings = supabaseRpcExposed.run(s);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.detail).toContain('delete_user, get_stats, sendInvite');
    expect(findings[0]!.severity).toBeUndefined();
    expect(plannedProbes(supabaseRpcExposed, s).map((p) => `${p.method} ${p.url}`)).toEqual([`GET https://${REF}.supabase.co/rest/v1/rpc/get_stats`]);
  });

  it.each([
    [[{ id: 1, email: 'ann@mail.example' }], 'high'],
    [[{ id: 1, password_hash: '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy' }], 'critical'],
    [[{ day: '2025-05-01', total: 12 }], 'low'],
    [[{ id: 1, email: 'n/a', ip_address: 'c0ffee00-1111-4222-8333-444455556666' }], 'low'],
  ] as const)('rates what a call returned by its first row: %j is %s', (rows, severity) => {
    expect(describeReturn({ status: 200, body: JSON.stringify(rows) } as never)?.rating.severity).toBe(severity);
  });

  describe('against the PostgREST stand-in', () => {
    let standIn: PostgrestStandIn;
    beforeAll(async () => {
      standIn = await startPostgrestStandIn({
        anonKey: anon,
        functions: {
          get_all_users: {
            returns: [
              { id: 'u1', email: 'ann@example.test', full_name: 'Ann' },
              { id: 'u2', email: 'bo@example.test', full_name: 'Bo' },
            ],
          },
          get_public_stats: { returns: { posts: 12 } },
          my_orders: { returns: [] },
          admin_report: { returns: [{ id: 1 }], anon: false },
          get_booking: {
            params: ['p_id'],
            returns: (args: Record<string, string>) =>
              args.p_id === BOOKING ? [{ id: BOOKING, guest_name: 'Maria Lopez', phone: '+14155550134', starts_at: '2025-06-01T10:00:00Z' }] : [],
          },
          get_invoice: { params: ['p_number', 'p_email'], returns: [{ id: 1, email: 'x@mail.example' }] },
        },
        tables: { appointments: [{ id: BOOKING, starts_at: '2025-06-01T10:00:00Z', status: 'confirmed' }] },
      });
    });
    afterAll(() => standIn.close());

    async function execute(probes: ProbeRequest[]): Promise<Record<string, ExchangeInit>> {
      const out: Record<string, ExchangeInit> = {};
      for (const probe of probes) {
        const res = await fetch(probe.url, { method: probe.method, headers: probe.headers });
        out[probe.key] = { url: probe.url, status: res.status, body: await res.text(), contentType: 'application/json' };
      }
      return out;
    }

    it('reports the function that returns users, not the empty, refused or harmless ones as high', async () => {
      const script = `${client(standIn.url)}c.rpc("get_all_users");c.rpc("get_public_stats");c.rpc("my_orders");c.rpc("admin_report");c.rpc("missing_fn")`;
      const probes = plannedProbes(supabaseRpcExposed, site(script));
      const findings = supabaseRpcExposed.run(site(script, await execute(probes)));
      expect(findings.map((f) => [f.url.split('/rpc/')[1], f.severity])).toEqual([
        ['', undefined],
        ['get_all_users', 'high'],
        ['get_public_stats', 'low'],
      ]);
      expect(findings[1]!.evidence.response).toBe(
        'HTTP 200\n2 rows; fields (values not kept): id, email, full_name\nSeen in the first row (masked): email: a***@example.test (an email address)',
      );
      expect(findings[1]!.detail).toContain('High: the first row returned holds an email address.');
      expect(JSON.stringify(findings)).not.toContain('ann@example.test');
      expect(JSON.stringify(findings)).not.toContain(anon);
      expect(standIn.nonReads()).toEqual([]);
      expect(new Set(standIn.requests.map((r) => r.method))).toEqual(new Set(['GET']));
    });

    /** The scan's two rounds: first probes (the table check's too), then the follow-ups planned from their answers. */
    async function twoRounds(script: string): Promise<{ site: Site; second: ProbeRequest[] }> {
      const { supabaseTableReadable } = await import('./supabase-table-readable');
      const first = [...plannedProbes(supabaseRpcExposed, site(script)), ...plannedProbes(supabaseTableReadable, site(script))].filter((p) => p.url.startsWith(standIn.url));
      const answered = site(script, await execute(first));
      const second = supabaseRpcExposed.followUpProbes!(answered);
      return { site: site(script, { ...(await execute(first)), ...(await execute(second)) }), second };
    }

    it('calls a function PostgREST says takes an id again, with the id of a row it read, and rates what comes back', async () => {
      const script = `${client(standIn.url)}c.from("appointments").select("*");c.rpc("get_booking",{p_id:e});c.rpc("get_invoice",{p_number:n,p_email:m})`;
      const { site: done, second } = await twoRounds(script);
      // get_invoice takes an email: not an id, never guessed.
      expect(second.map((p) => p.url)).toEqual([`${standIn.url}/rest/v1/rpc/get_booking?p_id=${BOOKING}`]);
      expect(second.every((p) => p.method === 'GET')).toBe(true);
      const findings = supabaseRpcExposed.run(done);
      const booking = findings.find((f) => f.url.endsWith('/rpc/get_booking'))!;
      expect(booking.severity).toBe('high');
      expect(booking.detail).toBe(
        'Called with the site\'s public key with p_id set to the id of a row read from table "appointments", database function "get_booking" returned 1 row. High: the first row returned holds a phone number and a person\'s name. A SECURITY DEFINER function skips row level security.',
      );
      expect(booking.evidence.request).toContain('rpc/get_booking?p_id=5b0c9a1e…');
      const all = JSON.stringify(findings);
      expect(all).not.toContain('Maria');
      expect(all).not.toContain('4155550134');
      expect(all).not.toContain(BOOKING);
      expect(standIn.nonReads()).toEqual([]);
    });

    it('does not call again when no id was read, or the function is not hinted', async () => {
      const script = `${client(standIn.url)}c.rpc("get_booking",{p_id:e});c.rpc("missing_fn")`;
      const { second } = await twoRounds(script);
      expect(second).toEqual([]);
    });
  });
});

// A full passive scan of a Vite + Supabase app whose project leaks through every read the Supabase checks make:
// tables, a view, a database function and a listable bucket. The stand-in records every request: none may write.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scan } from '../scan';
import { fakeSupabaseKey } from './fake-keys';
import { startPostgrestStandIn, type PostgrestStandIn } from './postgrest-stand-in';

const REF = 'abcdefghijklmnopqrst';
const anon = fakeSupabaseKey(REF, 'anon');

describe('a full scan of a Supabase app', () => {
  let supabase: PostgrestStandIn;
  let app: Server;
  let origin = '';
  beforeAll(async () => {
    supabase = await startPostgrestStandIn({
      anonKey: anon,
      tables: { profiles: [{ id: 'u1', email: 'ann@example.test' }], notes: { rows: [{ id: 1 }], rls: true } },
      functions: { get_all_users: { returns: [{ id: 'u1', email: 'ann@example.test' }] } },
      buckets: [{ name: 'documents', public: false, visibleToAnon: false, listable: true, files: { 'u1/passport.pdf': 'x' } }],
    });
    const bundle = `const sb=Qt("${supabase.url}","${anon}");sb.from("profiles").select("*");sb.from("notes").select("*");sb.rpc("get_all_users");sb.rpc("delete_account");sb.storage.from("documents").upload(p,f);`;
    app = createServer((req, res) => {
      if (req.url === '/assets/index.js') res.writeHead(200, { 'content-type': 'application/javascript' }).end(bundle);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>App</title><script type="module" src="/assets/index.js"></script>');
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await supabase.close();
    await new Promise((resolve) => app.close(resolve));
  });

  it('reports the table, function and bucket, and sends nothing that could write', async () => {
    const result = await scan(`${origin}/`, { maxPages: 3, render: false, rateLimit: 0 }, { addressPolicy: { allowPrivate: true } });
    const found = result.findings.filter((f) => f.family === 'supabase').map((f) => `${f.checkId} ${f.severity} ${f.url.replace(supabase.url, '')}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'supabase-table-readable high /rest/v1/profiles',
        'supabase-rpc-exposed high /rest/v1/rpc/get_all_users',
        'supabase-bucket-listable high /storage/v1/object/list/documents',
      ]),
    );
    expect(supabase.requests.some((r) => r.method === 'POST' && r.url === '/storage/v1/object/list/documents')).toBe(true);
    expect(supabase.requests.some((r) => r.url.includes('delete_account'))).toBe(false);
    expect(supabase.nonReads()).toEqual([]);
    expect(JSON.stringify(result)).not.toContain('ann@example.test');
  });
});

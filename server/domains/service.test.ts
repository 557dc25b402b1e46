import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostCoveredBy, normalizeDomain, TXT_PREFIX } from '../../common/domains';
import type { Database } from '../db';
import { openFreshDatabase } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';
import { DomainService } from './service';
import { startTokenSite, StandInTxtResolver } from './testing';

// The domain service on a real database, with the DNS stand-in and a site on 127.0.0.1 serving token files. The
// address policy is a shared server's (private addresses refused) with 127.0.0.1 allow-listed, as an administrator
// would for a site on the server's own network; every name under example.test is sent to that site.

let database: Database;
let site: Awaited<ReturnType<typeof startTokenSite>>;
const resolver = new StandInTxtResolver();
let service: DomainService;

beforeAll(async () => {
  database = await openFreshDatabase();
  site = await startTokenSite();
  service = new DomainService(database.db, {
    policy: { allowPrivate: false, allowList: ['127.0.0.1'] },
    resolver,
    siteOrigin: (domain) => `http://${domain}`,
    resolveHost: (host) => (host.endsWith('.example.test') ? { address: '127.0.0.1', port: site.port } : undefined),
  });
}, 60_000);
afterAll(async () => {
  await site?.close();
  await database?.close();
});

async function workspace(): Promise<{ workspaceId: string; userId: string }> {
  const userId = randomUUID();
  return { workspaceId: await personalWorkspace(database.pool, userId), userId };
}

describe('domain names', () => {
  it('are stored lower case without a trailing dot; URLs, IP literals, ports and bare labels are refused', () => {
    expect(normalizeDomain(' Shop.Example.COM. ')).toBe('shop.example.com');
    for (const bad of ['https://example.com', 'example.com/path', '10.0.0.1', 'example.com:443', 'localhost', '-bad.example.com', 'a..b', `${'a'.repeat(64)}.com`, '']) {
      expect(normalizeDomain(bad), bad).toBeNull();
    }
  });

  it('a verified domain covers itself and its subdomains, not look-alikes', () => {
    expect(hostCoveredBy('example.com', 'example.com')).toBe(true);
    expect(hostCoveredBy('App.Example.com', 'example.com')).toBe(true);
    expect(hostCoveredBy('badexample.com', 'example.com')).toBe(false);
    expect(hostCoveredBy('example.com.evil.test', 'example.com')).toBe(false);
  });
});

describe('DomainService', () => {
  it('verifies by the token file over HTTP; a wrong token fails with the reason; a token taken down fails the next check', async () => {
    const { workspaceId, userId } = await workspace();
    const added = await service.create(workspaceId, userId, 'http-proof.example.test');
    expect(added).toMatchObject({ state: 'pending', verified_at: null, http_url: 'https://http-proof.example.test/.well-known/vibeeval-verification.txt' });
    expect(added.token).toMatch(/^[0-9a-f]{32}$/);
    expect(added.txt_record).toBe(`${TXT_PREFIX}${added.token}`);
    expect(await service.covering(workspaceId, 'app.http-proof.example.test')).toBeNull();

    site.tokens.set('http-proof.example.test', 'not-the-token');
    const wrong = await service.verify(workspaceId, added.id);
    expect(wrong.state).toBe('failed');
    expect(wrong.last_error).toContain("http://http-proof.example.test/.well-known/vibeeval-verification.txt does not hold this domain's token");
    expect(wrong.last_error).toContain(`http-proof.example.test has no TXT record ${TXT_PREFIX}${added.token}`);

    site.tokens.set('http-proof.example.test', added.token);
    const verified = await service.verify(workspaceId, added.id);
    expect(verified).toMatchObject({ state: 'verified', last_error: null });
    expect(verified.verified_at).not.toBeNull();
    expect(await service.covering(workspaceId, 'app.http-proof.example.test')).toBe('http-proof.example.test');
    expect(site.requests).toContain('GET http-proof.example.test/.well-known/vibeeval-verification.txt');

    site.tokens.delete('http-proof.example.test');
    const lapsed = await service.verify(workspaceId, added.id);
    expect(lapsed).toMatchObject({ state: 'failed', verified_at: null });
    expect(lapsed.last_error).toContain('answered 404');
    expect(await service.covering(workspaceId, 'http-proof.example.test')).toBeNull();
  });

  it('verifies by a DNS TXT record (chunks joined); a record holding another token does not', async () => {
    const { workspaceId, userId } = await workspace();
    const added = await service.create(workspaceId, userId, 'dns-proof.example.test');
    resolver.records.set('dns-proof.example.test', [['v=spf1 -all'], [`${TXT_PREFIX}someone-else`]]);
    expect((await service.verify(workspaceId, added.id)).state).toBe('failed');
    resolver.records.set('dns-proof.example.test', [['v=spf1 -all'], [TXT_PREFIX, added.token]]);
    expect((await service.verify(workspaceId, added.id)).state).toBe('verified');
    expect(resolver.asked).toContain('dns-proof.example.test');
  });

  it('refuses to read the token from a private address the policy does not allow', async () => {
    const strict = new DomainService(database.db, {
      policy: { allowPrivate: false },
      resolver,
      siteOrigin: (domain) => `http://${domain}`,
      resolveHost: () => ({ address: '127.0.0.1', port: site.port }),
    });
    const { workspaceId, userId } = await workspace();
    const added = await strict.create(workspaceId, userId, 'rebound.example.test');
    site.tokens.set('rebound.example.test', added.token);
    const before = site.requests.length;
    const outcome = await strict.verify(workspaceId, added.id);
    expect(outcome.state).toBe('failed');
    expect(outcome.last_error).toMatch(/private or loopback/);
    expect(site.requests.length).toBe(before);
  });

  it("keeps each workspace's domains apart: another workspace's domain is not listed, verified, removed or covering", async () => {
    const a = await workspace();
    const b = await workspace();
    const own = await service.create(a.workspaceId, a.userId, 'mine.example.test');
    resolver.records.set('mine.example.test', [[`${TXT_PREFIX}${own.token}`]]);
    await service.verify(a.workspaceId, own.id);
    // The same domain in B: its own token, not verified by A's proof.
    const theirs = await service.create(b.workspaceId, b.userId, 'mine.example.test');
    expect(theirs.token).not.toBe(own.token);
    expect((await service.verify(b.workspaceId, theirs.id)).state).toBe('failed');
    expect(await service.covering(b.workspaceId, 'mine.example.test')).toBeNull();
    expect((await service.list(b.workspaceId, { limit: 10 })).items.map((domain) => domain.id)).toEqual([theirs.id]);
    await expect(service.verify(b.workspaceId, own.id)).rejects.toMatchObject({ statusCode: 404, message: 'Domain not found' });
    await expect(service.remove(b.workspaceId, own.id)).rejects.toMatchObject({ statusCode: 404 });
    expect(await service.covering(a.workspaceId, 'www.mine.example.test')).toBe('mine.example.test');
  });

  it('lists newest first in pages; the same domain twice is a 409', async () => {
    const { workspaceId, userId } = await workspace();
    for (const name of ['one', 'two', 'three']) await service.create(workspaceId, userId, `${name}.example.test`);
    await expect(service.create(workspaceId, userId, 'two.example.test')).rejects.toMatchObject({ statusCode: 409, message: 'This domain is already in the list' });
    const first = await service.list(workspaceId, { limit: 2 });
    expect(first.items.map((domain) => domain.domain)).toEqual(['three.example.test', 'two.example.test']);
    const second = await service.list(workspaceId, { limit: 2, cursor: first.next! });
    expect(second.items.map((domain) => domain.domain)).toEqual(['one.example.test']);
    expect(second.next).toBeNull();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { fixPrompt } from '../common/fix-prompt';
import { scanResultSchema, SEVERITY_RANK, type ScanProgress } from '../common/scan';
import { FIXTURE_SECRETS, startFixtureSite, type FixtureSite } from '../tests/fixtures/sites';
import { startPostgrestStandIn } from './testing/postgrest-stand-in';
import { findChromium } from './browser';
import { fingerprint, normalizeTarget, scan, ScanError } from './scan';

const LOCAL = { allowPrivate: true };
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});
async function site(kind: Parameters<typeof startFixtureSite>[0], options?: Parameters<typeof startFixtureSite>[1]): Promise<FixtureSite> {
  const started = await startFixtureSite(kind, options);
  opened.push(started);
  return started;
}

describe('scan of the well-configured site', () => {
  it('finds nothing of medium severity or above and grades the headers A+', async () => {
    const secure = await site('secure');
    const progress: ScanProgress[] = [];
    const result = await scan(secure.url, { maxPages: 10, render: false, rateLimit: 0 }, { addressPolicy: LOCAL, trustedCa: [secure.ca!], onProgress: (p) => progress.push(p) });
    expect(() => scanResultSchema.parse(result)).not.toThrow();
    const serious = result.findings.filter((finding) => SEVERITY_RANK[finding.severity] >= SEVERITY_RANK.medium);
    expect(serious.map((finding) => `${finding.checkId} ${finding.url}: ${finding.detail}`)).toEqual([]);
    expect(result.headers.grade).toBe('A+');
    expect(result.passed.length).toBeGreaterThan(10);
    expect(result.pages.length).toBe(6);
    expect(result.rendering).toEqual({ status: 'skipped', reason: 'rendering was turned off for this scan' });
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['crawl', 'probe', 'check', 'done']));
    expect(progress.at(-1)).toMatchObject({ phase: 'done', checksRun: progress.at(-1)!.checksTotal });
  });
});

describe('scan of a single-page app that answers every path with index.html', () => {
  it('reports no exposed files', async () => {
    const spa = await site('spa');
    const result = await scan(spa.url, { maxPages: 10, render: false, rateLimit: 0 }, { addressPolicy: LOCAL });
    expect(result.findings.filter((finding) => finding.family === 'exposed-files').map((finding) => finding.url)).toEqual([]);
    expect(result.passed.some((check) => check.checkId === 'exposed-env-file')).toBe(true);
  });
});

describe('scan of a vulnerable app built the way AI tools build them', () => {
  it('proves each problem with evidence, never writes, and never shows a whole secret', async () => {
    // The stand-in plays the app's hosted Supabase project (PostgREST + Storage protocol), see engine/testing/postgrest-stand-in.ts.
    const supabase = await startPostgrestStandIn({
      tables: {
        profiles: [{ id: 1, email: 'ann@petpal.example', full_name: 'Ann', phone: '+1 555 0100', stripe_customer_id: 'cus_1' }],
        bookings: { rows: [{ id: 1, pet_name: 'Rex' }], rls: true },
      },
      buckets: [{ name: 'avatars', public: true }],
    });
    opened.push(supabase);
    const app = await site('vulnerable', { supabaseUrl: supabase.url });
    const result = await scan(app.url, { maxPages: 10, render: false, rateLimit: 0 }, { addressPolicy: LOCAL });
    expect(() => scanResultSchema.parse(result)).not.toThrow();
    const byCheck = new Map<string, typeof result.findings>();
    for (const finding of result.findings) byCheck.set(finding.checkId, [...(byCheck.get(finding.checkId) ?? []), finding]);
    const severityOf = (id: string) => byCheck.get(id)?.map((finding) => finding.severity);

    expect(severityOf('supabase-service-key')).toEqual(['critical']);
    expect(byCheck.get('secret-in-client')?.some((finding) => finding.severity === 'critical' && /stripe/i.test(finding.title + finding.detail))).toBe(true);
    const profiles = byCheck.get('supabase-table-readable')?.find((finding) => finding.detail.includes('profiles'));
    // Rated by the row's values: an email address and a phone number.
    expect(profiles?.severity).toBe('high');
    expect(`${profiles?.detail} ${profiles?.evidence.response}`).toMatch(/email/);
    // RLS on bookings: readable but empty is not a finding.
    expect(byCheck.get('supabase-table-readable')?.some((finding) => finding.detail.includes('bookings'))).toBe(false);
    expect(severityOf('exposed-env-file')?.[0]).toBe('critical');
    expect(byCheck.has('exposed-git')).toBe(true);
    expect(byCheck.has('exposed-ai-tool-files')).toBe(true);
    expect(byCheck.get('vulnerable-js-library')?.some((finding) => /jquery/i.test(finding.detail) && finding.detail.includes('1.12.4'))).toBe(true);
    expect(severityOf('malicious-script-host')).toEqual(['critical']);
    expect(byCheck.has('csp-missing')).toBe(true);
    expect(byCheck.has('server-version-disclosure')).toBe(true);
    expect(byCheck.has('suspicious-comments')).toBe(true);
    expect(byCheck.has('exposed-source-map')).toBe(true);
    expect(result.grade).toBe('F');
    expect(result.headers.grade).toMatch(/^[D-F]/);

    // Read-only: the stand-in saw only GET, HEAD and Storage's list call (a POST that only reads), nothing that writes;
    // no exposed-file finding for paths the SPA fallback answers.
    expect(new Set(supabase.requests.map((request) => request.method))).toEqual(new Set(['GET', 'HEAD', 'POST']));
    expect(supabase.requests.filter((request) => request.method === 'POST').every((request) => request.url.startsWith('/storage/v1/object/list/'))).toBe(true);
    expect(supabase.nonReads()).toEqual([]);
    expect(result.findings.filter((finding) => finding.checkId === 'exposed-config-json')).toEqual([]);
    // Secrets are masked everywhere in the result.
    const serialized = JSON.stringify(result);
    for (const secret of [FIXTURE_SECRETS.serviceRoleJwt, FIXTURE_SECRETS.stripeSecret, FIXTURE_SECRETS.anonJwt, FIXTURE_SECRETS.dbPassword]) {
      expect(serialized).not.toContain(secret);
    }
    expect(serialized).not.toContain('ann@petpal.example');
    // And so in every finding's fix prompt, the text a person pastes into an AI coding tool.
    const prompts = result.findings.map((finding) => fixPrompt(result, finding)).join('\n');
    expect(prompts).toContain('vibeeval found in my app');
    for (const secret of [FIXTURE_SECRETS.serviceRoleJwt, FIXTURE_SECRETS.stripeSecret, FIXTURE_SECRETS.anonJwt, FIXTURE_SECRETS.dbPassword, 'ann@petpal.example']) {
      expect(prompts).not.toContain(secret);
    }

    // A second scan gives the same fingerprints: nothing new, nothing fixed.
    const again = await scan(app.url, { maxPages: 10, render: false, rateLimit: 0 }, { addressPolicy: LOCAL });
    expect(again.findings.map((finding) => finding.fingerprint).sort()).toEqual(result.findings.map((finding) => finding.fingerprint).sort());
  });
});

describe('scan errors', () => {
  it('adds https:// to a bare host name and refuses other schemes', () => {
    expect(normalizeTarget(' example.com/shop ')).toBe('https://example.com/shop');
    expect(() => normalizeTarget('ftp://example.com')).toThrow(ScanError);
    expect(() => normalizeTarget('')).toThrow(/Enter the URL/);
  });

  it('says when the target cannot be reached', async () => {
    const error = await scan('http://127.0.0.1:1/', { render: false }, { addressPolicy: LOCAL }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ScanError);
    expect((error as ScanError).code).toBe('unreachable');
    expect((error as ScanError).message).toMatch(/refused the connection/);
  });

  it('refuses loopback targets in server mode', async () => {
    const spa = await site('spa');
    await expect(scan(spa.url, { render: false }, { addressPolicy: { allowPrivate: false } })).rejects.toMatchObject({ code: 'address-refused' });
  });

  it('stops when aborted', async () => {
    const generated = await site('generated', { pages: 500 });
    const controller = new AbortController();
    const pending = scan(generated.url, { maxPages: 500, render: false, rateLimit: 20 }, { addressPolicy: LOCAL, signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });

  it('keeps fingerprints stable: query strings and order do not matter', () => {
    expect(fingerprint('csp-missing', 'https://a.example/x?utm=1')).toBe(fingerprint('csp-missing', 'https://a.example/x'));
    expect(fingerprint('csp-missing', 'https://a.example/x')).not.toBe(fingerprint('csp-missing', 'https://a.example/y'));
    expect(fingerprint('secret-in-client', 'https://a.example/', 'k1')).not.toBe(fingerprint('secret-in-client', 'https://a.example/', 'k2'));
  });
});

const browser = findChromium();
if (browser.path === null) console.warn(`scan with rendering skipped: ${browser.reason}`);
describe.skipIf(browser.path === null)('scan with rendering', () => {
  it('discovers client-side routes of the single-page app', async () => {
    const spa = await site('spa');
    const result = await scan(spa.url, { maxPages: 10, render: true, rateLimit: 0 }, { addressPolicy: LOCAL });
    expect(result.rendering.status).toBe('done');
    expect(
      result.pages
        .filter((page) => page.source === 'render')
        .map((page) => new URL(page.url).pathname)
        .sort(),
    ).toEqual(['/settings', '/tasks']);
  });
});

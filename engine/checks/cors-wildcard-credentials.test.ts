import { describe, expect, it } from 'vitest';
import { CORS_GET_PREFIX } from '../analysis/cors';
import { makeSite } from '../testing/site';
import { corsWildcardCredentials } from './cors-wildcard-credentials';

const URL = 'https://app.example.com/';
const run = (headers: Record<string, string | string[]>) => corsWildcardCredentials.run(makeSite({ root: { url: URL, headers, body: '' } }));

describe('cors-wildcard-credentials', () => {
  it.each([[{}], [{ 'access-control-allow-origin': '*' }], [{ 'access-control-allow-origin': 'https://a.example', 'access-control-allow-credentials': 'true' }]])(
    'passes: %o',
    (headers) => {
      expect(run(headers)).toEqual([]);
    },
  );

  it('flags * with credentials as low', () => {
    expect(run({ 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' })).toMatchObject([{ severity: 'low', key: 'credentials' }]);
  });

  it('flags * on a response that sets cookies as info, values masked', () => {
    const [finding] = run({ 'access-control-allow-origin': '*', 'set-cookie': 'session=supersecretvalue; Path=/' });
    expect(finding).toMatchObject({ severity: 'info', key: 'cookies' });
    expect(finding!.evidence.response).toContain('set-cookie: session=supe…; Path=/');
    expect(finding!.evidence.response).not.toContain('supersecretvalue');
  });

  it('reads the CORS probe answers', () => {
    const api = 'https://app.example.com/api/data';
    const site = makeSite({
      root: { url: URL, body: '' },
      probes: { [`${CORS_GET_PREFIX}${api}`]: { url: api, headers: { 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' }, body: '{}' } },
    });
    expect(corsWildcardCredentials.run(site)).toMatchObject([{ url: api }]);
  });
});

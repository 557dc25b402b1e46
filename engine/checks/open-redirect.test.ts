import { describe, expect, it } from 'vitest';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { openRedirect, planOpenRedirect, pointsToTarget } from './open-redirect';

const ROOT = 'https://app.example/';
const HOME = '<html><body><a href="/login?next=/dashboard">Sign in</a><form action="/go"><input name="url"></form></body></html>';
const site = (active: boolean, probes: Record<string, ExchangeInit> = {}) => makeSite({ root: { url: ROOT, body: HOME }, options: { active }, probes });

describe('open-redirect', () => {
  it('plans nothing unless active; otherwise crawled parameters first, then guesses, without following redirects', () => {
    expect(plannedProbes(openRedirect, site(false))).toEqual([]);
    const planned = plannedProbes(openRedirect, site(true));
    expect(planned.every((p) => p.noRedirect && p.method === 'GET')).toBe(true);
    expect(planOpenRedirect(site(true)).map((p) => `${new URL(p.url).pathname}?${p.param}`)).toEqual(['/login?next', '/go?url', '/?next', '/?redirect', '/?url', '/?returnTo']);
  });

  it('recognises Location values that leave for the test host', () => {
    expect(pointsToTarget('https://vibeeval-redirect.example/', ROOT)).toBe(true);
    expect(pointsToTarget('//vibeeval-redirect.example/', ROOT)).toBe(true);
    expect(pointsToTarget('/\\vibeeval-redirect.example/', ROOT)).toBe(true);
    expect(pointsToTarget('/dashboard', ROOT)).toBe(false);
    expect(pointsToTarget('https://app.example/?next=https://vibeeval-redirect.example/', ROOT)).toBe(false);
  });

  const answer = (status: number, location?: string): Record<string, ExchangeInit> => {
    const planned = planOpenRedirect(site(true))[0]!;
    const headers: Record<string, string> = location ? { location } : {};
    return { [planned.key]: { url: planned.url, status, headers, body: '' } };
  };
  it.each([
    ['redirect to a local path', answer(302, '/dashboard')],
    ['200 page', answer(200)],
    ['redirect to the site itself', answer(302, 'https://app.example/dashboard')],
  ])('no finding: %s', (_name, probes) => {
    expect(openRedirect.run(site(true, probes))).toEqual([]);
  });

  it('reports a redirect to the external test URL', () => {
    const [finding] = openRedirect.run(site(true, answer(302, 'https://vibeeval-redirect.example/')));
    expect(finding?.key).toBe('/login?next');
    expect(finding?.evidence.match).toBe('Location: https://vibeeval-redirect.example/');
  });
});

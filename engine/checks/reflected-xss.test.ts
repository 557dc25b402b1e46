import { describe, expect, it } from 'vitest';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { planReflectedXss, reflectedXss } from './reflected-xss';

const ROOT = 'https://app.example/';
const HOME = '<html><body><a href="/search?q=shoes&page=2">s</a><a href="/search?q=hats&page=3">s</a><a href="https://other.example/?x=1">o</a></body></html>';
const site = (active: boolean, probes: Record<string, ExchangeInit> = {}) => makeSite({ root: { url: ROOT, body: HOME }, options: { active }, probes });

describe('reflected-xss', () => {
  it('plans nothing and does not apply unless the scan is active', () => {
    expect(plannedProbes(reflectedXss, site(false))).toEqual([]);
    expect(reflectedXss.appliesTo?.(site(false))).toBe(false);
  });

  it('plans one request per same-origin URL shape plus the start URL with q', () => {
    const planned = planReflectedXss(site(true));
    expect(planned).toHaveLength(2);
    expect(new URL(planned[0]!.url).pathname).toBe('/search');
    expect(planned[0]!.params.map((p) => p.name)).toEqual(['q', 'page']);
    expect(new URL(planned[1]!.url).searchParams.get('q')).toContain('<svg/onload=1>');
  });

  const answer = (key: string, body: string, contentType = 'text/html') => {
    const planned = planReflectedXss(site(true)).find((p) => p.key === key)!;
    return { [key]: { url: planned.url, body, contentType } };
  };
  it.each([
    ['escaped reflection', (m: string) => `<p>${m.replace(/</g, '&lt;').replace(/"/g, '&quot;')}</p>`, 'text/html'],
    ['JSON answer', (m: string) => JSON.stringify({ q: m }), 'application/json'],
    ['no reflection', () => '<p>no results</p>', 'text/html'],
  ])('no finding: %s', (_name, render, type) => {
    const marker = planReflectedXss(site(true))[0]!.params[0]!.marker;
    expect(reflectedXss.run(site(true, answer('reflected-xss:0', render(marker), type)))).toEqual([]);
  });

  it('reports a parameter reflected unescaped in HTML', () => {
    const marker = planReflectedXss(site(true))[0]!.params[0]!.marker;
    const [finding] = reflectedXss.run(site(true, answer('reflected-xss:0', `<h1>Results for ${marker}</h1>`)));
    expect(finding?.key).toBe('/search?q');
    expect(finding?.evidence.match).toContain('<svg/onload=1>');
  });
});

import { describe, expect, it } from 'vitest';
import { AFFILIATE, MARKETING_PLANS, SAMPLE_REPORTS, canSubmitUrl, checkMarketingUrl, isOwnDomain, isValidEmail, parseCookieConsent } from './marketing';
import { createProjectBodySchema, createProjectFormSchema } from './projects';
import { publicScanRequestSchema } from './public-scan';
import { withScheme } from './site-url';

describe('checkMarketingUrl', () => {
  it.each([
    ['', 'idle'],
    ['   ', 'idle'],
    ['example.com', 'valid'],
    ['https://my-app.lovable.app/pricing', 'valid'],
    ['http://localhost:5173', 'valid'],
    ['not a url', 'invalid'],
    ['example', 'invalid'],
    ['ftp://example.com', 'invalid'],
    ['https://exa mple.com', 'invalid'],
    ['https://lovable.dev/projects/0f3b2a9e-1c4d-4e7a-9b1a-2f5c6d7e8f90', 'lovable-project'],
    ['lovable.dev/projects/abc', 'lovable-project'],
    ['https://lovable.dev/pricing', 'valid'],
  ])('%j is %s', (input, status) => {
    expect(checkMarketingUrl(input).status).toBe(status);
  });

  it('reads an address as the dashboard and the API do: what one accepts the other does, as the same site', () => {
    for (const input of ['example.com', 'example.com/', 'https://Example.com/', 'shop.example.com/app/', 'http://localhost:5173/']) {
      const landing = checkMarketingUrl(input).url;
      expect(landing).toBe(createProjectBodySchema.parse({ url: input }).url);
      expect(createProjectFormSchema.parse({ name: 'Shop', url: input }).url).toBe(landing);
      expect(publicScanRequestSchema.parse({ url: input, email: 'a@example.com' }).url).toBe(landing);
    }
    expect(new Set(['example.com', 'https://example.com/'].map((input) => createProjectBodySchema.parse({ url: input }).url))).toEqual(new Set(['https://example.com/']));
    for (const input of ['nope', 'not a url']) {
      expect(checkMarketingUrl(input).status).toBe('invalid');
      expect(createProjectBodySchema.safeParse({ url: input }).success).toBe(false);
    }
  });

  it('prepends https when the scheme is missing', () => {
    expect(withScheme('example.com/a')).toBe('https://example.com/a');
    expect(withScheme('http://example.com')).toBe('http://example.com');
    expect(checkMarketingUrl('example.com').url).toBe('https://example.com/');
  });

  it('marks the product domain and its subdomains, not look-alikes', () => {
    expect(checkMarketingUrl('vibe-eval.com').ownDomain).toBe(true);
    expect(checkMarketingUrl('https://app.VIBE-EVAL.com/x').ownDomain).toBe(true);
    expect(isOwnDomain('vibe-eval.com.')).toBe(true);
    expect(isOwnDomain('notvibe-eval.com')).toBe(false);
    expect(isOwnDomain('vibe-eval.com.evil.test')).toBe(false);
  });

  it('disables submit while submitting, on blank input and for invalid or editor URLs', () => {
    expect(canSubmitUrl('example.com', 'valid', false)).toBe(true);
    // Typing runs ahead of the debounced status: submit stays possible with an idle status.
    expect(canSubmitUrl('example.com', 'idle', false)).toBe(true);
    expect(canSubmitUrl('example.com', 'valid', true)).toBe(false);
    expect(canSubmitUrl('  ', 'idle', false)).toBe(false);
    expect(canSubmitUrl('x', 'invalid', false)).toBe(false);
    expect(canSubmitUrl('lovable.dev/projects/1', 'lovable-project', false)).toBe(false);
  });
});

describe('marketing constants', () => {
  it('has the sample report counts of the spec', () => {
    const counts = Object.fromEntries(Object.entries(SAMPLE_REPORTS).map(([type, r]) => [type, Object.values(r.counts).join('/')]));
    expect(counts).toEqual({ ecommerce: '2/2/12', social: '1/2/15', banking: '3/1/8', default: '1/1/10' });
    for (const report of Object.values(SAMPLE_REPORTS)) {
      expect(report.critical.length).toBe(report.counts.critical);
      expect(report.moderate.length).toBe(report.counts.moderate);
    }
  });

  it('derives affiliate commissions from the plan prices', () => {
    const price = (id: string) => MARKETING_PLANS.find((plan) => plan.id === id)!.price;
    expect(((price('basic') * AFFILIATE.recurringRatePercent) / 100).toFixed(2)).toBe(AFFILIATE.basicMonthly.toFixed(2));
    expect(((price('pro') * AFFILIATE.recurringRatePercent) / 100).toFixed(2)).toBe(AFFILIATE.proMonthly.toFixed(2));
    expect(((price('lifetime') * AFFILIATE.lifetimeRatePercent) / 100).toFixed(2)).toBe(AFFILIATE.lifetimeOnce.toFixed(2));
  });
});

describe('emails and consent', () => {
  it.each([
    ['ada@example.com', true],
    [' ada@example.com ', true],
    ['ada@example', false],
    ['ada@@example.com', false],
    ['.ada@example.com', false],
    ['', false],
  ])('%j valid: %s', (email, valid) => {
    expect(isValidEmail(email)).toBe(valid);
  });

  it('reads only a consent it wrote', () => {
    expect(parseCookieConsent(JSON.stringify({ necessary: true, analytics: false, marketing: true }))).toEqual({
      necessary: true,
      analytics: false,
      marketing: true,
    });
    expect(parseCookieConsent(null)).toBeNull();
    expect(parseCookieConsent('yes')).toBeNull();
    expect(parseCookieConsent(JSON.stringify({ necessary: true, analytics: 'no', marketing: true }))).toBeNull();
  });
});

describe('publicScanRequestSchema', () => {
  const parse = (body: unknown) => publicScanRequestSchema.safeParse(body);
  const message = (body: unknown) => parse(body).error?.issues[0]?.message;

  it('accepts a website and an email, normalising both', () => {
    expect(parse({ url: 'example.com', email: ' ada@example.com ' }).data).toEqual({ url: 'https://example.com/', email: 'ada@example.com' });
  });

  it('refuses bad input with the form messages', () => {
    expect(message({ url: 'nope', email: 'ada@example.com' })).toBe('Please enter a valid website URL');
    expect(message({ url: 'https://lovable.dev/projects/1', email: 'ada@example.com' })).toBe('Please use the deployed URL for this project, not the Lovable editor URL');
    expect(message({ url: 'https://www.vibe-eval.com', email: 'ada@example.com' })).toBe('vibe-eval.com cannot be scanned with itself');
    expect(message({ url: 'example.com', email: 'ada' })).toBe('Please enter a valid email address');
    expect(message({ url: 'example.com' })).toBe('Please enter a valid email address');
    expect(message({})).toBe('Please enter a valid website URL');
  });
});

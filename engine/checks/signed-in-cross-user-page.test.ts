import { describe, expect, it } from 'vitest';
import { makeSite, type ExchangeInit } from '../testing/site';
import type { Site, SiteAccount } from '../types';
import { signedInCrossUserPage } from './signed-in-cross-user-page';

const ID = 'signed-in-cross-user-page';
const O = 'https://app.test';
const TWO: SiteAccount[] = [
  { login: 'alice@example.test', signedIn: true },
  { login: 'bob@example.test', signedIn: true },
];
const list = (ids: number[], who: string) =>
  `<header>Signed in as ${who}</header><ul>${ids.map((id) => `<li><a href="/invoices/${id}">#${id}</a></li>`).join('')}<li><a href="/products/7">Mug</a></li></ul>`;
const invoice = (id: number, who: string) => `<header>Signed in as ${who}</header><h1>Invoice #${id}</h1><p>Billed by bob@example.test</p>`;
const html = (url: string, body: string, status = 200): ExchangeInit => ({ url, status, body, contentType: 'text/html' });

const siteWith = (probes: Record<string, ExchangeInit>, accounts: SiteAccount[] = TWO): Site => ({
  ...makeSite({
    root: { url: `${O}/`, body: '<a href="/invoices">Invoices</a>' },
    // The crawl asked for /invoices and was sent to the login page.
    pages: [
      {
        url: `${O}/invoices`,
        finalUrl: `${O}/login?next=%2Finvoices`,
        body: '<form method="post" action="/login"><input name="email"><input type="password" name="password"></form>',
        redirects: [{ url: `${O}/invoices`, status: 302, location: '/login?next=%2Finvoices', headers: [] }],
      },
    ],
    probes,
  }),
  accounts,
});
const start = (as: number, body: string): Record<string, ExchangeInit> => ({ [`${ID}:start:${O}/invoices:${as}`]: html(`${O}/invoices`, body) });
const record = (id: number, as: number, body: string, status = 200): Record<string, ExchangeInit> => ({
  [`${ID}:record:${O}/invoices/${id}:${as}`]: html(`${O}/invoices/${id}`, body, status),
});
const lists = { ...start(0, list([1042], 'alice@example.test')), ...start(1, list([1043], 'bob@example.test')) };

describe('signed-in-cross-user-page', () => {
  it('reads the walled page as each account, then asks for the record only the other account links to, as both', () => {
    expect(signedInCrossUserPage.probes!(siteWith({})).map((p) => [p.url, p.as])).toEqual([
      [`${O}/invoices`, 0],
      [`${O}/invoices`, 1],
    ]);
    const followUps = signedInCrossUserPage.followUpProbes!(siteWith(lists)).map((p) => [p.url, p.as]);
    // Bob's invoice as Alice (and as Bob), Alice's as Bob (and as Alice); the product both see is nobody's.
    expect(followUps).toEqual([
      [`${O}/invoices/1042`, 1],
      [`${O}/invoices/1042`, 0],
      [`${O}/invoices/1043`, 0],
      [`${O}/invoices/1043`, 1],
    ]);
    expect(signedInCrossUserPage.probes!(siteWith({}, [TWO[0]!]))).toEqual([]);
  });

  const cases: Array<{ name: string; probes: Record<string, ExchangeInit>; found: number }> = [
    {
      name: "the other user's invoice opens, the same page as hers",
      probes: { ...lists, ...record(1043, 0, invoice(1043, 'alice@example.test')), ...record(1043, 1, invoice(1043, 'bob@example.test')) },
      found: 1,
    },
    {
      name: 'owner checked: 404 for the other user',
      probes: { ...lists, ...record(1043, 0, '<h1>Invoice not found</h1>', 404), ...record(1043, 1, invoice(1043, 'bob@example.test')) },
      found: 0,
    },
    {
      name: 'a different page (her own view of a missing id)',
      probes: { ...lists, ...record(1043, 0, '<h1>Your invoices</h1>'), ...record(1043, 1, invoice(1043, 'bob@example.test')) },
      found: 0,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const findings = signedInCrossUserPage.run(siteWith(c.probes));
      expect(findings.length).toBe(c.found);
      for (const finding of findings) {
        expect(finding.severity).toBe('high');
        expect(finding.evidence?.request).toContain('Sent as alice@example.test');
      }
    });
  }
});

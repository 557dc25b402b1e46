import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey, fakeToken } from '../testing/fake-keys';
import { makeSite } from '../testing/site';
import { publicKeyInClient } from './public-key-in-client';

const anon = fakeSupabaseKey('abcdefghijklmnopqrst', 'anon');
const firebaseKey = 'AIza' + fakeToken(35);

describe('public-key-in-client', () => {
  it('no finding without public keys, or with only secrets', () => {
    expect(publicKeyInClient.run(makeSite({ root: { url: 'https://app.test/', body: '<p>hi</p>' } }))).toEqual([]);
    expect(publicKeyInClient.run(makeSite({ root: { url: 'https://app.test/', body: `<script>x("${'sk_' + 'live_' + fakeToken(30)}")</script>` } }))).toEqual([]);
  });

  it('lists anon, publishable and Firebase web keys as info with what protects the data', () => {
    const body = `<script>const sb=Qt("https://abcdefghijklmnopqrst.supabase.co","${anon}");const firebaseConfig={apiKey:"${firebaseKey}",authDomain:"demo.firebaseapp.com",projectId:"demo"};loadStripe("${'pk_' + 'live_' + fakeToken(24)}");Sentry.init({dsn:"https://${fakeToken(32, '0123456789abcdef')}@o1.ingest.sentry.io/2"})</script>`;
    const findings = publicKeyInClient.run(makeSite({ root: { url: 'https://app.test/', body } }));
    expect(findings.map((f) => f.title)).toEqual([
      'Supabase anon key visible in client code',
      'Firebase web API key visible in client code',
      'Stripe publishable key visible in client code',
      'Sentry DSN visible in client code',
    ]);
    expect(findings.every((f) => f.severity === 'info')).toBe(true);
    expect(findings[0]!.detail).toContain('row level security');
    expect(findings[1]!.detail).toContain('Security Rules');
    expect(JSON.stringify(findings)).not.toContain(anon);
    expect(JSON.stringify(findings)).not.toContain(firebaseKey);
  });
});

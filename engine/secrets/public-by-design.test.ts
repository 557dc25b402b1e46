// Public by design is not a secret: values every web SDK ships to browsers stay at info or low, whatever their
// entropy, while server secrets in the same shapes stay high or critical. Real-looking shapes, fake values.
import { describe, expect, it } from 'vitest';
import { SEVERITY_RANK, type Severity } from '../../common/scan';
import { publicKeyInClient } from '../checks/public-key-in-client';
import { secretInClient } from '../checks/secret-in-client';
import { supabaseServiceKey } from '../checks/supabase-service-key';
import { HEX, fakeSupabaseKey, fakeToken as t } from '../testing/fake-keys';
import { makeSite } from '../testing/site';
import type { FindingDraft } from '../types';

const UPPERNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const REF = 'abcdefghijklmnopqrst';
const firebaseConfig = `const firebaseConfig = {
  apiKey: "${'AIza' + t(35, undefined, 1)}",
  authDomain: "petpal-a1b2c.firebaseapp.com",
  projectId: "petpal-a1b2c",
  storageBucket: "petpal-a1b2c.appspot.com",
  messagingSenderId: "481516234200",
  appId: "1:481516234200:web:${t(22, HEX, 2)}",
  measurementId: "G-${t(10, UPPERNUM, 3)}"
};
const app = initializeApp(firebaseConfig);`;

const PUBLIC: Record<string, string> = {
  'Firebase web config object': firebaseConfig,
  'Firebase config from Vite env, inlined': `const e={VITE_FIREBASE_API_KEY:"${'AIza' + t(35, undefined, 4)}",VITE_FIREBASE_AUTH_DOMAIN:"shop-9f8e7.firebaseapp.com",VITE_FIREBASE_PROJECT_ID:"shop-9f8e7",VITE_FIREBASE_APP_ID:"1:99887766554:web:${t(22, HEX, 5)}"}`,
  'Next.js env Firebase config': `\nNEXT_PUBLIC_FIREBASE_AUTH_DOMAIN=crm-77aa1.firebaseapp.com\nNEXT_PUBLIC_FIREBASE_API_KEY=${'AIza' + t(35, undefined, 6)}\n`,
  'Supabase URL and anon key': `const supabase = createClient("https://${REF}.supabase.co", "${fakeSupabaseKey(REF, 'anon')}");`,
  'Supabase publishable key': `const supabase = createClient(SUPABASE_URL, "${'sb_publishable_' + t(31, undefined, 7)}");`,
  'Stripe publishable keys': `const stripe = await loadStripe("${'pk_' + 'live_' + t(99, undefined, 8)}");const t2=Stripe("${'pk_' + 'test_' + t(99, undefined, 9)}")`,
  'Sentry DSN': `Sentry.init({ dsn: "https://${t(32, HEX, 10)}@o4507123.ingest.us.sentry.io/4507123456789", tracesSampleRate: 0.1 });`,
  'PostHog project key': `posthog.init("${'phc_' + t(43, undefined, 11)}", { api_host: "https://us.i.posthog.com", person_profiles: "identified_only" });`,
  'PostHog key from env': `const posthogConfig={posthogApiKey:"${'phc_' + t(43, undefined, 12)}",apiHost:"/ingest"}`,
  'Segment write key': `AnalyticsBrowser.load({ writeKey: "${t(32, undefined, 13)}" })`,
  'Mixpanel token under a token-like name': `const MIXPANEL_TOKEN = "${t(32, HEX, 14)}"; mixpanel.init(MIXPANEL_TOKEN);`,
  'Amplitude API key': `amplitude.init("${t(32, HEX, 15)}", { defaultTracking: true });`,
  'Google Analytics and Hotjar ids': `gtag("config", "G-${t(10, UPPERNUM, 16)}");ga("create","UA-48151623-1","auto");(function(h){h._hjSettings={hjid:3456789,hjsv:6}})(window)`,
  'Google Maps browser key': `const loader = new Loader({ apiKey: "${'AIza' + t(35, undefined, 17)}" }); // @googlemaps/js-api-loader, google.maps.Map`,
  'Auth0 SPA config': `createAuth0Client({ domain: "dev-abc123xyz.us.auth0.com", clientId: "${t(32, undefined, 18)}", authorizationParams: { redirect_uri: location.origin } })`,
};

const SECRET: Array<[string, string, Severity]> = [
  ['Stripe secret key', `const stripe = new Stripe("${'sk_' + 'live_' + t(99, undefined, 20)}")`, 'critical'],
  ['Supabase service_role JWT', `createClient(url, "${fakeSupabaseKey(REF, 'service_role')}")`, 'critical'],
  ['Supabase secret key', `createClient(url, "${'sb_secret_' + t(31, undefined, 21)}")`, 'critical'],
  [
    'AWS secret access key',
    `new S3Client({credentials:{accessKeyId:"${'AKIA' + t(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 22)}",secretAccessKey:"${t(40, undefined, 23)}"}})`,
    'critical',
  ],
  ['OpenAI key', `new OpenAI({ apiKey: "${'sk-' + 'proj-' + t(120, undefined, 24)}", dangerouslyAllowBrowser: true })`, 'critical'],
  ['PostHog personal API key', `fetch("/api/projects",{headers:{Authorization:"Bearer ${'phx_' + t(47, undefined, 25)}"}})`, 'critical'],
  ['private key', `const pem = "-----BEGIN ${'PRIVATE'} KEY-----\\n${t(300, undefined, 26)}\\n-----END PRIVATE KEY-----"`, 'critical'],
];

const run = (script: string): FindingDraft[] => {
  const site = makeSite({ root: { url: 'https://app.test/', body: `<html><script>${script}</script></html>` } });
  return [secretInClient, publicKeyInClient, supabaseServiceKey].flatMap((check) => check.run(site).map((f) => ({ ...f, severity: f.severity ?? check.severity })));
};

describe('public by design', () => {
  it.each(Object.entries(PUBLIC))('%s: nothing above low, and never from secret-in-client', (_name, script) => {
    const site = makeSite({ root: { url: 'https://app.test/', body: `<html><script>${script}</script></html>` } });
    expect(secretInClient.run(site).map((f) => f.title)).toEqual([]);
    for (const finding of run(script)) expect(SEVERITY_RANK[finding.severity!], finding.title).toBeLessThanOrEqual(SEVERITY_RANK.low);
  });

  it('lists the Firebase web config once, as its web API key, at info', () => {
    expect(run(firebaseConfig).map((f) => [f.title, f.severity])).toEqual([['Firebase web API key visible in client code', 'info']]);
  });

  it('keeps a Maps browser key at low, with the restriction to add', () => {
    const [maps] = run(PUBLIC['Google Maps browser key']!);
    expect([maps!.title, maps!.severity]).toEqual(['Google Maps browser key visible in client code', 'low']);
    expect(maps!.detail).toContain('HTTP referrers');
  });

  it.each(SECRET)('%s stays %s', (_name, script, severity) => {
    const top = run(script).reduce((max, f) => Math.max(max, SEVERITY_RANK[f.severity!]), -1);
    expect(top).toBe(SEVERITY_RANK[severity]);
  });
});

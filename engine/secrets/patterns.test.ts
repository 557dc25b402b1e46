import { describe, expect, it } from 'vitest';
import { HEX, LETTERS, UPPER32, fakeJwt, fakeSupabaseKey, fakeToken as t } from '../testing/fake-keys';
import { SECRET_RULES } from './patterns';
import { scanText } from './scan';

const HEXU = '0123456789ABCDEF';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const clerkPk = (host: string) => 'pk_' + 'test_' + Buffer.from(`${host}$`).toString('base64');

/** One sample per rule: [rule id, text, expected severity, public]. Keys are built at run time, never literal. */
const SAMPLES: Array<[string, string, string, boolean?]> = [
  ['openai-project-key', `const k="${'sk-' + 'proj-' + t(120, undefined, 2)}"`, 'critical'],
  ['openai-service-account-key', `x="${'sk-' + 'svcacct-' + t(60, undefined, 3)}"`, 'critical'],
  ['openai-admin-key', `x="${'sk-' + 'admin-' + t(60, undefined, 4)}"`, 'critical'],
  ['openai-legacy-key', `x="${'sk-' + t(20, undefined, 5) + 'T3Blbk' + 'FJ' + t(20, undefined, 6)}"`, 'critical'],
  ['openrouter-api-key', `x="${'sk-or-' + 'v1-' + t(64, HEX, 7)}"`, 'critical'],
  ['anthropic-api-key', `x="${'sk-ant-' + 'api03-' + t(93, undefined, 8) + 'AA'}"`, 'critical'],
  ['anthropic-admin-key', `x="${'sk-ant-' + 'admin01-' + t(93, undefined, 9) + 'AA'}"`, 'critical'],
  ['huggingface-token', `x="${'hf_' + t(34, LETTERS, 10)}"`, 'critical'],
  ['replicate-api-token', `x="${'r8_' + t(37, undefined, 11)}"`, 'critical'],
  ['groq-api-key', `x="${'gsk_' + t(52, undefined, 12)}"`, 'critical'],
  ['xai-api-key', `x="${'xai-' + t(80, undefined, 13)}"`, 'critical'],
  ['perplexity-api-key', `x="${'pplx-' + t(48, undefined, 14)}"`, 'critical'],
  ['langsmith-api-key', `x="${'lsv2_' + 'pt_' + t(32, HEX, 15) + '_' + t(10, HEX, 16)}"`, 'critical'],
  ['pinecone-api-key', `x="${'pcsk_' + t(6, undefined, 17) + '_' + t(60, undefined, 18)}"`, 'critical'],
  ['cohere-api-key', `const cohereApiKey = "${t(40, undefined, 19)}"`, 'critical'],
  ['mistral-api-key', `MISTRAL_API_KEY: "${t(32, undefined, 20)}"`, 'critical'],
  ['deepseek-api-key', `new OpenAI({baseURL:"https://api.deepseek.com",apiKey:"${'sk-' + t(32, HEX, 21)}"})`, 'critical'],
  ['elevenlabs-api-key', `headers:{"xi-api-key":"${'sk_' + t(48, HEX, 22)}"}`, 'critical'],
  ['clerk-secret-key', `CLERK_SECRET_KEY="${'sk_' + 'live_' + t(40, undefined, 23)}"`, 'critical'],
  ['stripe-secret-key', `stripe("${'sk_' + 'live_' + 'x'.repeat(24)}")`, 'critical'],
  ['stripe-restricted-key', `k="${'rk_' + 'live_' + t(24, undefined, 24)}"`, 'critical'],
  ['stripe-webhook-secret', `k="${'whsec_' + t(32, undefined, 25)}"`, 'high'],
  ['clerk-publishable-key', `publishableKey:"${clerkPk('clerk.example-app.dev')}"`, 'info', true],
  ['stripe-publishable-key', `loadStripe("${'pk_' + 'live_' + t(24, undefined, 26)}")`, 'info', true],
  ['square-access-token', `k="${'sq0atp-' + t(22, undefined, 27)}"`, 'critical'],
  ['square-oauth-secret', `k="${'sq0csp-' + t(43, undefined, 28)}"`, 'critical'],
  ['braintree-access-token', `k="${'access_token$' + 'production$' + t(16, 'abcdefghij0123456789', 29) + '$' + t(32, HEX, 30)}"`, 'critical'],
  ['razorpay-key-id', `key:"${'rzp_' + 'live_' + t(14, undefined, 31)}"`, 'info', true],
  ['razorpay-key-secret', `new Razorpay({key_id:"x",key_secret:"${t(24, undefined, 32)}"})`, 'critical'],
  ['paddle-api-key', `k="${'pdl_' + 'live_' + 'apikey_' + t(40, undefined, 33)}"`, 'critical'],
  ['lemonsqueezy-api-key', `LEMON_SQUEEZY_API_KEY="${fakeJwt({ aud: '1', jti: 'x'.repeat(10) })}"`, 'critical'],
  ['plaid-access-token', `t="${'access-' + 'production-' + t(8, HEX, 34) + '-' + t(4, HEX) + '-' + t(4, HEX) + '-' + t(4, HEX) + '-' + t(12, HEX)}"`, 'critical'],
  ['plaid-secret', `PLAID_SECRET="${t(30, HEX, 35)}"`, 'critical'],
  ['aws-access-key-id', `accessKeyId:"${'AKIA' + t(16, UPPER32, 36)}"`, 'medium'],
  ['aws-secret-access-key', `secretAccessKey:"${t(40, B64, 37)}"`, 'critical'],
  ['google-api-key', `new Maps({key:"${'AIza' + t(35, undefined, 38)}"})`, 'medium'],
  ['google-oauth-client-secret', `client_secret:"${'GOCSPX-' + t(28, undefined, 39)}"`, 'critical'],
  [
    'gcp-service-account-key',
    `{"type": "service_account", "project_id": "p", "private_key": "-----BEGIN PRIVATE KEY-----\\n${t(200, B64, 40)}\\n-----END PRIVATE KEY-----\\n"}`,
    'critical',
  ],
  ['fcm-server-key', `k="${'AAAA' + t(7, undefined, 41) + ':APA91b' + t(134, undefined, 42)}"`, 'high'],
  ['azure-storage-key', `DefaultEndpointsProtocol=https;AccountName=x;AccountKey=${t(86, B64, 43)}==;EndpointSuffix=core.windows.net`, 'critical'],
  ['digitalocean-token', `k="${'dop_' + 'v1_' + t(64, HEX, 44)}"`, 'critical'],
  ['cloudflare-api-token', `CLOUDFLARE_API_TOKEN="${t(40, undefined, 45)}"`, 'critical'],
  ['heroku-api-key', `k="${'HRKU-' + 'AA' + t(58, undefined, 46)}"`, 'critical'],
  ['heroku-legacy-api-key', `HEROKU_API_KEY="${t(8, HEX, 47)}-${t(4, HEX)}-${t(4, HEX)}-${t(4, HEX)}-${t(12, HEX)}"`, 'critical'],
  ['vercel-token', `VERCEL_TOKEN="${t(24, undefined, 48)}"`, 'critical'],
  ['netlify-token', `k="${'nfp_' + t(36, undefined, 49)}"`, 'critical'],
  ['doppler-token', `k="${'dp.' + 'pt.' + t(43, undefined, 50)}"`, 'critical'],
  ['tailscale-key', `k="${'tskey-' + 'api-' + t(12, undefined, 51) + '-' + t(30, undefined, 52)}"`, 'critical'],
  ['terraform-cloud-token', `k="${t(14, undefined, 53) + '.atlas' + 'v1.' + t(64, undefined, 54)}"`, 'critical'],
  ['onepassword-service-token', `k="${'ops_' + 'eyJ' + t(200, undefined, 55)}"`, 'critical'],
  ['grafana-token', `k="${'glsa_' + t(32, undefined, 56) + '_' + t(8, HEX, 57)}"`, 'critical'],
  ['github-pat', `k="${'ghp_' + t(36, undefined, 58)}"`, 'critical'],
  ['github-oauth-token', `k="${'gho_' + t(36, undefined, 59)}"`, 'critical'],
  ['github-user-token', `k="${'ghu_' + t(36, undefined, 60)}"`, 'critical'],
  ['github-app-token', `k="${'ghs_' + t(36, undefined, 61)}"`, 'critical'],
  ['github-refresh-token', `k="${'ghr_' + t(76, undefined, 62)}"`, 'critical'],
  ['github-fine-grained-pat', `k="${'github_' + 'pat_' + t(82, undefined, 63)}"`, 'critical'],
  ['gitlab-pat', `k="${'glpat-' + t(20, undefined, 64)}"`, 'critical'],
  ['npm-token', `//registry.npmjs.org/:_authToken=${'npm_' + t(36, undefined, 65)}`, 'critical'],
  ['pypi-token', `k="${'pypi-' + 'AgEIcHlwaS5vcmc' + t(70, undefined, 66)}"`, 'critical'],
  ['shopify-access-token', `k="${'shpat_' + t(32, HEX, 67)}"`, 'critical'],
  ['shopify-shared-secret', `k="${'shpss_' + t(32, HEX, 68)}"`, 'critical'],
  ['atlassian-api-token', `k="${'ATATT3' + 'xFfGF0' + t(180, undefined, 69)}"`, 'critical'],
  ['postman-api-key', `k="${'PMAK-' + t(24, HEX, 70) + '-' + t(34, HEX, 71)}"`, 'critical'],
  ['figma-token', `k="${'figd_' + t(40, undefined, 72)}"`, 'high'],
  ['linear-api-key', `k="${'lin_' + 'api_' + t(40, undefined, 73)}"`, 'critical'],
  ['notion-token', `k="${'ntn_' + t(46, undefined, 74)}"`, 'critical'],
  ['airtable-pat', `k="${'pat' + t(14, undefined, 75) + '.' + t(64, HEX, 76)}"`, 'critical'],
  ['contentful-management-token', `k="${'CFPAT-' + t(43, undefined, 77)}"`, 'critical'],
  ['slack-bot-token', `k="${'xoxb-' + t(12, '0123456789', 78) + '-' + t(12, '0123456789', 79) + '-' + t(24, undefined, 80)}"`, 'critical'],
  ['slack-user-token', `k="${'xoxp-' + t(12, '0123456789', 81) + '-' + t(12, '0123456789', 82) + '-' + t(12, '0123456789', 83) + '-' + t(32, HEX, 84)}"`, 'critical'],
  ['slack-app-token', `k="${'xapp-' + '1-' + t(11, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 85) + '-' + t(13, '0123456789', 86) + '-' + t(64, HEX, 87)}"`, 'critical'],
  ['discord-bot-token', `const discordBotToken="${'M' + t(25, undefined, 93) + '.' + t(6, undefined, 94) + '.' + t(38, undefined, 95)}"`, 'critical'],
  ['telegram-bot-token', `fetch("https://api.telegram.org/bot${t(10, '0123456789', 96) + ':AA' + t(33, undefined, 97)}/sendMessage")`, 'critical'],
  ['sendgrid-api-key', `k="${'SG.' + t(22, undefined, 98) + '.' + t(43, undefined, 99)}"`, 'critical'],
  ['twilio-api-key', `twilio("${'SK' + t(32, HEX, 100)}")`, 'high'],
  ['twilio-auth-token', `const twilioAuthToken = "${t(32, HEX, 101)}"`, 'critical'],
  ['twilio-account-sid', `twilio("${'AC' + t(32, HEX, 102)}")`, 'info', true],
  ['mailgun-api-key', `k="${'key-' + t(32, HEX, 103)}"`, 'critical'],
  ['mailchimp-api-key', `mailchimp.setConfig({apiKey:"${t(32, HEX, 104) + '-us12'}"})`, 'critical'],
  ['resend-api-key', `new Resend("${'re_' + t(8, undefined, 105) + '_' + t(24, undefined, 106)}")`, 'critical'],
  ['postmark-server-token', `"X-Postmark-Server-Token": "${t(8, HEX, 107)}-${t(4, HEX)}-${t(4, HEX)}-${t(4, HEX)}-${t(12, HEX)}"`, 'critical'],
  ['pusher-secret', `PUSHER_APP_SECRET="${t(20, HEX, 108)}"`, 'critical'],
  ['supabase-access-token', `k="${'sbp_' + t(40, HEX, 109)}"`, 'critical'],
  ['supabase-secret-key', `k="${'sb_secret_' + t(32, undefined, 110)}"`, 'critical'],
  ['supabase-publishable-key', `k="${'sb_publishable_' + t(32, undefined, 111)}"`, 'info', true],
  ['supabase-jwt-key', `createClient(u,"${fakeSupabaseKey('abcdefghijklmnopqrst', 'anon')}")`, 'info', true],
  ['database-url', `DATABASE_URL="postgres://app:${t(20, undefined, 112)}@db.${t(8, LETTERS.slice(26), 113)}.dbhost-cloud.net:5432/app"`, 'critical'],
  ['algolia-admin-key', `algoliasearch("APPID", ""); const ALGOLIA_ADMIN_KEY="${t(32, HEX, 114)}"`, 'critical'],
  ['mapbox-secret-token', `k="${'sk.' + 'eyJ' + t(60, undefined, 115) + '.' + t(22, undefined, 116)}"`, 'critical'],
  ['mapbox-public-token', `k="${'pk.' + 'eyJ' + t(60, undefined, 117) + '.' + t(22, undefined, 118)}"`, 'info', true],
  ['posthog-personal-key', `k="${'phx_' + t(47, undefined, 130)}"`, 'critical'],
  ['posthog-project-key', `posthog.init("${'phc_' + t(43, undefined, 131)}",{api_host:"https://eu.i.posthog.com"})`, 'info', true],
  ['segment-write-key', `analytics.load("${t(32, undefined, 132)}")`, 'info', true],
  ['mixpanel-project-token', `mixpanel.init("${t(32, HEX, 133)}",{track_pageview:true})`, 'info', true],
  ['amplitude-api-key', `const AMPLITUDE_API_KEY="${t(32, HEX, 134)}";amplitude.init(AMPLITUDE_API_KEY)`, 'info', true],
  ['sentry-dsn', `Sentry.init({dsn:"https://${t(32, HEX, 119)}@o123456.ingest.sentry.io/4505"})`, 'info', true],
  ['sentry-org-token', `k="${'sntrys_' + 'eyJ' + t(120, undefined, 120)}"`, 'high'],
  ['sentry-user-token', `k="${'sntryu_' + t(64, HEX, 121)}"`, 'critical'],
  ['datadog-api-key', `DD_API_KEY="${t(32, HEX, 122)}"`, 'critical'],
  ['datadog-app-key', `DD_APP_KEY="${t(40, HEX, 123)}"`, 'critical'],
  ['datadog-client-token', `datadogRum.init({clientToken:"${'pub' + t(32, HEX, 124)}"})`, 'info', true],
  ['newrelic-user-key', `k="${'NRAK-' + t(27, UPPER32, 125)}"`, 'critical'],
  ['newrelic-insert-key', `k="${'NRII-' + t(32, undefined, 126)}"`, 'high'],
  ['newrelic-browser-key', `k="${'NRJS-' + t(19, HEX, 127)}"`, 'info', true],
  ['private-key', `const pem = "-----BEGIN RSA ${'PRIVATE'} KEY-----\\n${t(300, B64, 128)}\\n-----END RSA PRIVATE KEY-----"`, 'critical'],
  ['jwt', `headers:{Authorization:"Bearer ${fakeJwt({ sub: 'service', scope: 'admin' })}"}`, 'low'],
];

describe('secret rules', () => {
  it('has at least 60 provider rules with unique ids', () => {
    expect(SECRET_RULES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(SECRET_RULES.map((r) => r.id)).size).toBe(SECRET_RULES.length);
  });

  it('has a sample for every rule', () => {
    const sampled = new Set(SAMPLES.map(([id]) => id));
    expect(SECRET_RULES.map((r) => r.id).filter((id) => !sampled.has(id))).toEqual([]);
  });

  it.each(SAMPLES)('%s matches its sample', (id, text, severity, isPublic) => {
    const hits = scanText(text, 'script');
    const hit = hits.find((h) => h.ruleId === id);
    expect(hit, `${id}: got ${hits.map((h) => h.ruleId).join(', ') || 'nothing'}`).toBeDefined();
    expect(hit!.severity).toBe(severity);
    expect(hit!.public).toBe(isPublic ?? false);
    expect(text.slice(hit!.start, hit!.end)).toBe(hit!.secret);
  });

  it('decides by context and role', () => {
    const stripeTest = scanText(`k="${'sk_' + 'test_' + t(24)}"`, 'script')[0]!;
    expect([stripeTest.ruleId, stripeTest.severity]).toEqual(['stripe-secret-key', 'low']);
    const firebase = scanText(`const firebaseConfig={apiKey:"${'AIza' + t(35)}",authDomain:"demo-app.firebaseapp.com",projectId:"demo-app"}`, 'script')[0]!;
    expect([firebase.label, firebase.severity, firebase.public]).toEqual(['Firebase web API key', 'info', true]);
    const service = scanText(`createClient(u,"${fakeSupabaseKey('abcdefghijklmnopqrst', 'service_role')}")`, 'script')[0]!;
    expect([service.label, service.severity, service.dedicated]).toEqual(['Supabase service_role key', 'critical', 'supabase-service-key']);
    const pair = scanText(`{accessKeyId:"${'AKIA' + t(16, UPPER32)}",secretAccessKey:"${t(40, B64, 3)}"}`, 'script');
    expect(pair.map((h) => [h.ruleId, h.severity])).toEqual([
      ['aws-access-key-id', 'critical'],
      ['aws-secret-access-key', 'critical'],
    ]);
    const clerkTest = scanText(`Clerk({secretKey:"${'sk_' + 'test_' + t(40)}"})`, 'script')[0]!;
    expect([clerkTest.ruleId, clerkTest.severity]).toEqual(['clerk-secret-key', 'medium']);
    expect(scanText(`k="${'sk_' + 'live_' + t(40)}"`, 'script')[0]!.ruleId).toBe('stripe-secret-key');
  });

  it("ignores a signed-in user's session tokens in storage and requests", () => {
    const session = fakeSupabaseKey('abcdefghijklmnopqrst', 'authenticated');
    expect(scanText(`sb-x-auth-token={"access_token":"${session}"}`, 'storage')).toEqual([]);
    expect(scanText(`authorization: Bearer ${fakeJwt({ sub: 'u1' })}`, 'request')).toEqual([]);
    expect(scanText(`const s="${session}"`, 'script').map((h) => h.ruleId)).toEqual(['jwt']);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"admin"}').toString('base64url')}.`;
    expect(scanText(`const ADMIN_TOKEN="${unsigned}"`, 'script').map((h) => [h.ruleId, h.severity, h.secret])).toEqual([['jwt', 'low', unsigned]]);
  });

  describe('generic high-entropy assignments', () => {
    const valid = [
      `const config = { apiKey: "not-a-key" }`,
      `const API_KEY = process.env.API_KEY`,
      `const apiKey = import.meta.env.VITE_OPENAI_KEY`,
      `{api_key:"your_api_key_here_1234567890"}`,
      `{token:"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}`,
      `{secret:"example-secret-value-000000000000"}`,
      `{tokenClassName:"text-muted-foreground-xl-ring-2"}`,
      `{password_reset_url:"https://example.com/reset/abc123def456"}`,
      `{anonKeyPlaceholder:"Zx81bQ9mK3vP0sL7nR2tY5wE4uI6oA8d"}`,
      `{publishableKey:"Zx81bQ9mK3vP0sL7nR2tY5wE4uI6oA8d"}`,
      `{csrfToken:"Zx81bQ9mK3vP0sL7nR2tY5wE4uI6oA8d"}`,
      `{authorName:"Zx81bQ9mK3vP0sL7nR2tY5wE4uI6oA8d"}`,
      `const token = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa11"`,
      `password: "${HEXU.repeat(2)}"`.replace(/[A-F]/g, '1'),
    ];
    const invalid: Array<[string, string, string]> = [
      [`const apiSecret = "${t(32, undefined, 200)}"`, 'apiSecret', 'high'],
      [`{"client_secret": "${t(40, undefined, 201)}"}`, 'client_secret', 'high'],
      [`window.__CFG={authToken:'${t(28, undefined, 202)}'}`, 'authToken', 'medium'],
      [`x\nINTERNAL_API_TOKEN=${t(30, undefined, 203)}\n`, 'INTERNAL_API_TOKEN', 'medium'],
      [`db.password = \`${t(24, undefined, 204)}\``, 'password', 'high'],
    ];
    it.each(valid)('no finding: %s', (text) => {
      expect(scanText(text, 'script').filter((h) => h.ruleId === 'generic-secret')).toEqual([]);
    });
    it.each(invalid)('finding: %s', (text, name, severity) => {
      const hits = scanText(text, 'script').filter((h) => h.ruleId === 'generic-secret');
      expect(hits).toHaveLength(1);
      expect(hits[0]!.label).toContain(name);
      expect(hits[0]!.severity).toBe(severity);
      expect(hits[0]!.confidence).toBe('low');
    });
  });

  it('reports each secret once per text, even when several rules could match', () => {
    const key = 'sk_' + 'live_' + t(30);
    const hits = scanText(`a="${key}";b="${key}";const stripeSecret="${key}"`, 'script');
    expect(hits.map((h) => h.ruleId)).toEqual(['stripe-secret-key']);
  });
});

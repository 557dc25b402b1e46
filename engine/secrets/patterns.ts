// Provider rules for credentials shipped to browsers. Formats follow the providers' documentation and the public
// gitleaks/TruffleHog rule sets (reference only; these expressions are our own). Every expression is linear:
// bounded repetitions of single character classes, no nested quantifiers, so a 2 MB bundle scans in milliseconds.
import type { Severity } from '../../common/scan';
import { supabaseJwtRole } from './jwt';

/** Where a text came from; some rules judge differently in a user's own storage than in shipped code. */
export type SourceKind = 'html' | 'script' | 'inline-script' | 'sourcemap' | 'storage' | 'request';

/** The text around a match, for rules whose verdict depends on context. */
export interface MatchContext {
  text: string;
  start: number;
  end: number;
  kind: SourceKind;
}

/** A rule's decision about one match. */
export interface Verdict {
  severity: Severity;
  /** Meant to be public (publishable keys, Firebase web config): reported as info with what protects the data. */
  public?: boolean;
  /** Overrides the rule's label, e.g. "Clerk secret key (development instance)". */
  label?: string;
  /** One sentence on what the key can do or why it is fine. */
  note?: string;
  /** Reported by a dedicated check instead of secret-in-client. */
  dedicated?: 'supabase-service-key';
}

export interface SecretRule {
  id: string;
  provider: string;
  /** What the secret is, e.g. "Stripe live secret key". */
  label: string;
  /** Cheap prefilter: the regex runs only when one of these occurs in the text (case-sensitive). */
  keywords: readonly string[];
  /** Like keywords, but lower-case and looked up in the lower-cased text (provider names for unprefixed keys). */
  keywordsCi?: readonly string[];
  /** Global regex; capture group 1, when present, is the secret, otherwise the whole match. */
  regex: RegExp;
  severity: Severity;
  public?: boolean;
  /** Minimum Shannon entropy of the secret, for formats that could collide with ordinary identifiers. */
  minEntropy?: number;
  note?: string;
  /** Decides severity and role from the match; null drops the match (placeholder, wrong provider, a user's session). */
  decide?: (secret: string, ctx: MatchContext) => Verdict | null;
}

/** True when `pattern` occurs within `radius` characters around the match. */
export function near(ctx: MatchContext, pattern: RegExp, radius = 400): boolean {
  return pattern.test(ctx.text.slice(Math.max(0, ctx.start - radius), ctx.end + radius));
}

// Boundaries that also treat '-' as part of a token (keys often contain '-').
const B = String.raw`(?<![\w-])`;
const A = String.raw`(?![\w-])`;
const re = (source: string, flags = 'g') => new RegExp(source, flags);
/** `name ... = "value"` in JS, JSON or env syntax; the value is group 1. Names are an alternation of literals. */
const assigned = (names: string, value: string) => re(String.raw`(?:${names})[\w$-]{0,24}["'\]]?\s{0,5}(?:[:=]|=>)\s{0,5}["'\x60]?(${value})(?![\w-])`, 'gi');

const liveOrTest =
  (live: Severity, test: Severity) =>
  (secret: string): Verdict =>
    /_(?:live|prod)/.test(secret) ? { severity: live } : { severity: test, label: undefined, note: 'A test-mode key: no real money or production data, but still a secret.' };

const FIREBASE_CONTEXT = /authDomain|projectId|firebaseapp\.com|firebaseio\.com|storageBucket|messagingSenderId|measurementId|FIREBASE|[Ff]irebase|initializeApp\(/;
/** A browser key loaded by the Maps JavaScript API: public by design, protected only by its referrer restriction. */
const MAPS_CONTEXT = /maps\.googleapis\.com|google\.maps\.|@googlemaps\/|@react-google-maps|googleMapsApiKey|GOOGLE_MAPS|useJsApiLoader|LoadScript/;
/** A key inside a Google Chat webhook URL (`chat.googleapis.com/v1/spaces/<space>/messages?key=`). */
const IN_CHAT_WEBHOOK = /chat\.googleapis\.com\/v1\/spaces\/[\w-]{1,60}\/messages\?key=$/;
/** `name: "value"` for analytics SDKs whose browser keys only send events: the value is group 1. */
const analyticsKey = (calls: string, names: string, value: string) =>
  re(String.raw`(?:(?:${calls})\(\s{0,3}["'\x60]|(?:${names})["'\]]?\s{0,5}(?:[:=]|=>)\s{0,5}["'\x60]?)(${value})(?![\w-])`, 'gi');
const ANALYTICS_NOTE =
  'An analytics ingestion key: it can only send events, so it is meant to ship in the page; anyone may send fake events with it, so filter bots in the analytics project.';

/** Every provider rule, most specific first: a secret claimed by an earlier rule is not reported again by a later one. */
export const SECRET_RULES: readonly SecretRule[] = [
  // --- AI providers
  {
    id: 'openai-project-key',
    provider: 'OpenAI',
    label: 'OpenAI project API key',
    keywords: ['sk-proj-'],
    regex: re(`${B}(sk-proj-[A-Za-z0-9_-]{40,200})${A}`),
    severity: 'critical',
    note: 'Anyone can spend your OpenAI credit and read your project data.',
  },
  {
    id: 'openai-service-account-key',
    provider: 'OpenAI',
    label: 'OpenAI service account key',
    keywords: ['sk-svcacct-'],
    regex: re(`${B}(sk-svcacct-[A-Za-z0-9_-]{40,200})${A}`),
    severity: 'critical',
  },
  {
    id: 'openai-admin-key',
    provider: 'OpenAI',
    label: 'OpenAI admin key',
    keywords: ['sk-admin-'],
    regex: re(`${B}(sk-admin-[A-Za-z0-9_-]{40,200})${A}`),
    severity: 'critical',
    note: 'Admin keys manage the whole organisation: members, keys and billing.',
  },
  {
    id: 'openai-legacy-key',
    provider: 'OpenAI',
    label: 'OpenAI API key',
    keywords: ['T3BlbkFJ'],
    regex: re(`${B}(sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})${A}`),
    severity: 'critical',
  },
  { id: 'openrouter-api-key', provider: 'OpenRouter', label: 'OpenRouter API key', keywords: ['sk-or-v1-'], regex: re(`${B}(sk-or-v1-[a-f0-9]{64})${A}`), severity: 'critical' },
  {
    id: 'anthropic-api-key',
    provider: 'Anthropic',
    label: 'Anthropic API key',
    keywords: ['sk-ant-api03-'],
    regex: re(`${B}(sk-ant-api03-[\\w-]{80,120})${A}`),
    severity: 'critical',
  },
  {
    id: 'anthropic-admin-key',
    provider: 'Anthropic',
    label: 'Anthropic admin key',
    keywords: ['sk-ant-admin01-'],
    regex: re(`${B}(sk-ant-admin01-[\\w-]{80,120})${A}`),
    severity: 'critical',
  },
  {
    id: 'huggingface-token',
    provider: 'Hugging Face',
    label: 'Hugging Face access token',
    keywords: ['hf_', 'api_org_'],
    regex: re(`${B}((?:hf_|api_org_)[A-Za-z]{34})${A}`),
    severity: 'critical',
    minEntropy: 3.5,
  },
  { id: 'replicate-api-token', provider: 'Replicate', label: 'Replicate API token', keywords: ['r8_'], regex: re(`${B}(r8_[A-Za-z0-9]{37})${A}`), severity: 'critical' },
  { id: 'groq-api-key', provider: 'Groq', label: 'Groq API key', keywords: ['gsk_'], regex: re(`${B}(gsk_[A-Za-z0-9]{52})${A}`), severity: 'critical' },
  { id: 'xai-api-key', provider: 'xAI', label: 'xAI (Grok) API key', keywords: ['xai-'], regex: re(`${B}(xai-[A-Za-z0-9]{80})${A}`), severity: 'critical' },
  { id: 'perplexity-api-key', provider: 'Perplexity', label: 'Perplexity API key', keywords: ['pplx-'], regex: re(`${B}(pplx-[A-Za-z0-9]{48})${A}`), severity: 'critical' },
  {
    id: 'langsmith-api-key',
    provider: 'LangSmith',
    label: 'LangSmith API key',
    keywords: ['lsv2_'],
    regex: re(`${B}(lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10})${A}`),
    severity: 'critical',
  },
  {
    id: 'pinecone-api-key',
    provider: 'Pinecone',
    label: 'Pinecone API key',
    keywords: ['pcsk_'],
    regex: re(`${B}(pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,80})${A}`),
    severity: 'critical',
  },
  {
    id: 'cohere-api-key',
    provider: 'Cohere',
    label: 'Cohere API key',
    keywords: [],
    keywordsCi: ['cohere'],
    regex: assigned('cohere', '[A-Za-z0-9]{40}'),
    severity: 'critical',
    minEntropy: 3.5,
  },
  {
    id: 'mistral-api-key',
    provider: 'Mistral',
    label: 'Mistral API key',
    keywords: [],
    keywordsCi: ['mistral'],
    regex: assigned('mistral', '[A-Za-z0-9]{32}'),
    severity: 'critical',
    minEntropy: 3.5,
  },
  {
    id: 'deepseek-api-key',
    provider: 'DeepSeek',
    label: 'DeepSeek API key',
    keywords: [],
    keywordsCi: ['deepseek'],
    regex: re(`${B}(sk-[a-f0-9]{32})${A}`),
    severity: 'critical',
    decide: (_s, ctx) => (near(ctx, /deepseek/i, 300) ? { severity: 'critical' } : null),
  },
  {
    id: 'elevenlabs-api-key',
    provider: 'ElevenLabs',
    label: 'ElevenLabs API key',
    keywords: [],
    keywordsCi: ['elevenlabs', 'xi-api-key'],
    regex: re(`${B}(sk_[a-f0-9]{48})${A}`),
    severity: 'critical',
  },

  // --- payments
  {
    id: 'clerk-secret-key',
    provider: 'Clerk',
    label: 'Clerk secret key',
    keywords: ['sk_live_', 'sk_test_'],
    keywordsCi: ['clerk'],
    regex: re(`${B}(sk_(?:live|test)_[A-Za-z0-9]{30,60})${A}`),
    severity: 'critical',
    decide: (secret, ctx) => {
      if (!near(ctx, /clerk/i, 300)) return null; // a Stripe key; the next rule takes it
      return secret.startsWith('sk_live_')
        ? { severity: 'critical', note: 'The Clerk backend API: read and change every user and session.' }
        : { severity: 'medium', label: 'Clerk secret key (development instance)', note: 'Full backend access to the development instance and its test users.' };
    },
  },
  {
    id: 'stripe-secret-key',
    provider: 'Stripe',
    label: 'Stripe secret key',
    keywords: ['sk_live_', 'sk_test_'],
    regex: re(`${B}(sk_(?:live|test)_[A-Za-z0-9]{20,247})${A}`),
    severity: 'critical',
    decide: liveOrTest('critical', 'low'),
    note: 'Full access to the Stripe account: charges, refunds, customers, payouts.',
  },
  {
    id: 'stripe-restricted-key',
    provider: 'Stripe',
    label: 'Stripe restricted key',
    keywords: ['rk_live_', 'rk_test_'],
    regex: re(`${B}(rk_(?:live|test)_[A-Za-z0-9]{20,247})${A}`),
    severity: 'critical',
    decide: liveOrTest('critical', 'low'),
  },
  {
    id: 'stripe-webhook-secret',
    provider: 'Stripe',
    label: 'Stripe webhook signing secret',
    keywords: ['whsec_'],
    regex: re(`${B}(whsec_[A-Za-z0-9+/=]{32,100})${A}`),
    severity: 'high',
    note: 'Lets anyone forge webhook events your server will trust (fake payments).',
  },
  {
    id: 'clerk-publishable-key',
    provider: 'Clerk',
    label: 'Clerk publishable key',
    keywords: ['pk_live_', 'pk_test_'],
    public: true,
    regex: re(`${B}(pk_(?:live|test)_[A-Za-z0-9+/=_-]{12,200})${A}`),
    severity: 'info',
    // Clerk publishable keys are base64 of "<frontend api host>$"; Stripe's are not.
    decide: (secret) =>
      Buffer.from(secret.slice(8), 'base64').toString('latin1').endsWith('$')
        ? { severity: 'info', public: true, note: "Meant for the browser; sessions and Clerk's backend API protect the users." }
        : null,
  },
  {
    id: 'stripe-publishable-key',
    provider: 'Stripe',
    label: 'Stripe publishable key',
    keywords: ['pk_live_', 'pk_test_'],
    regex: re(`${B}(pk_(?:live|test)_[A-Za-z0-9]{20,247})${A}`),
    severity: 'info',
    public: true,
    note: 'Meant for the browser (Stripe.js); it can only create tokens and payment intents confirmed by your server. Keep the secret key server-side.',
  },
  {
    id: 'square-access-token',
    provider: 'Square',
    label: 'Square access token',
    keywords: ['sq0atp-', 'EAAA'],
    regex: re(`${B}(sq0atp-[\\w-]{22}|EAAA[\\w-]{60})${A}`),
    severity: 'critical',
    decide: (s, ctx) => (s.startsWith('EAAA') && !near(ctx, /square/i, 400) ? null : { severity: 'critical' }),
  },
  {
    id: 'square-oauth-secret',
    provider: 'Square',
    label: 'Square OAuth application secret',
    keywords: ['sq0csp-'],
    regex: re(`${B}(sq0csp-[\\w-]{43})${A}`),
    severity: 'critical',
  },
  {
    id: 'braintree-access-token',
    provider: 'PayPal Braintree',
    label: 'PayPal/Braintree access token',
    keywords: ['access_token$'],
    regex: re(`(access_token\\$(?:production|sandbox)\\$[a-z0-9]{16}\\$[a-f0-9]{32})`),
    severity: 'critical',
    decide: (s) => (s.includes('$production$') ? { severity: 'critical' } : { severity: 'low', note: 'A sandbox token.' }),
  },
  {
    id: 'razorpay-key-id',
    provider: 'Razorpay',
    label: 'Razorpay key id',
    keywords: ['rzp_live_', 'rzp_test_'],
    regex: re(`${B}(rzp_(?:live|test)_[A-Za-z0-9]{14})${A}`),
    severity: 'info',
    public: true,
    note: 'The key id is meant for Razorpay Checkout in the browser; the key secret must stay on the server.',
  },
  {
    id: 'razorpay-key-secret',
    provider: 'Razorpay',
    label: 'Razorpay key secret',
    keywords: [],
    keywordsCi: ['razorpay', 'rzp_'],
    regex: assigned('razorpay_?(?:key_?)?secret|key_?secret', '[A-Za-z0-9]{24}'),
    severity: 'critical',
    minEntropy: 3.5,
  },
  {
    id: 'paddle-api-key',
    provider: 'Paddle',
    label: 'Paddle API key',
    keywords: ['pdl_'],
    regex: re(`${B}(pdl_(?:live|sdbx)_apikey_[A-Za-z0-9_]{30,80})${A}`),
    severity: 'critical',
    decide: (s) => (s.startsWith('pdl_live') ? { severity: 'critical' } : { severity: 'low', note: 'A sandbox key.' }),
  },
  {
    id: 'lemonsqueezy-api-key',
    provider: 'Lemon Squeezy',
    label: 'Lemon Squeezy API key',
    keywords: ['eyJ'],
    keywordsCi: ['lemonsqueezy', 'lemon_squeezy'],
    regex: assigned('lemon_?squeezy', 'eyJ[\\w-]{10,600}\\.eyJ[\\w-]{10,1500}\\.[\\w-]{10,1000}'),
    severity: 'critical',
  },
  {
    id: 'plaid-access-token',
    provider: 'Plaid',
    label: 'Plaid access token',
    keywords: ['access-production-', 'access-development-', 'access-sandbox-'],
    regex: re(`${B}(access-(?:production|development|sandbox)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12})${A}`),
    severity: 'critical',
    decide: (s) => (s.includes('-production-') ? { severity: 'critical' } : { severity: 'low' }),
  },
  {
    id: 'plaid-secret',
    provider: 'Plaid',
    label: 'Plaid secret',
    keywords: [],
    keywordsCi: ['plaid'],
    regex: assigned('plaid_?secret|plaid[\\w-]{0,12}secret', '[a-f0-9]{30}'),
    severity: 'critical',
  },

  // --- cloud and infrastructure
  {
    id: 'aws-access-key-id',
    provider: 'AWS',
    label: 'AWS access key id',
    keywords: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    regex: re(`(?<![A-Za-z0-9])((?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})(?![A-Za-z0-9])`),
    severity: 'high',
    decide: (secret, ctx) => {
      const paired = near(ctx, /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/, 300) && near(ctx, /secret/i, 300);
      if (paired)
        return {
          severity: secret.startsWith('ASIA') ? 'high' : 'critical',
          note: "An access key id with its secret access key next to it: full use of the IAM identity's permissions.",
        };
      return { severity: 'medium', note: 'An access key id alone cannot sign requests, but it names a live IAM credential; its secret may be shipped too.' };
    },
  },
  {
    id: 'aws-secret-access-key',
    provider: 'AWS',
    label: 'AWS secret access key',
    keywords: [],
    keywordsCi: ['secretaccesskey', 'secret_access_key', 'aws_secret'],
    regex: assigned('secret_?access_?key|aws_?secret(?:_?key)?', '[A-Za-z0-9/+]{40}'),
    severity: 'critical',
    minEntropy: 4,
  },
  {
    id: 'google-api-key',
    provider: 'Google',
    label: 'Google API key',
    keywords: ['AIza'],
    regex: re(`${B}(AIza[\\w-]{35})${A}`),
    severity: 'medium',
    // Decided by the key's role in the page: a Firebase web config, a Maps loader, or unknown.
    decide: (_s, ctx) => {
      // The shared key of a Google Chat webhook URL: the URL is reported whole by automation-webhook-in-client.
      if (IN_CHAT_WEBHOOK.test(ctx.text.slice(Math.max(0, ctx.start - 120), ctx.start))) return null;
      return near(ctx, FIREBASE_CONTEXT, 600)
        ? {
            severity: 'info',
            public: true,
            label: 'Firebase web API key',
            note: 'Firebase web API keys identify the project and are meant to be public; Security Rules and App Check protect the data, and the key should be restricted to Firebase APIs and your domains.',
          }
        : near(ctx, MAPS_CONTEXT, 400)
          ? {
              severity: 'low',
              public: true,
              label: 'Google Maps browser key',
              note: 'The Maps JavaScript API needs the key in the page; restrict it to your HTTP referrers and to the Maps APIs, or others can bill map loads to your project.',
            }
          : {
              severity: 'medium',
              note: 'A browser Google API key is visible by design, so it must be restricted (HTTP referrers and the APIs it may call) or anyone can bill requests to your project.',
            };
    },
  },
  {
    id: 'google-oauth-client-secret',
    provider: 'Google',
    label: 'Google OAuth client secret',
    keywords: ['GOCSPX-'],
    regex: re(`${B}(GOCSPX-[\\w-]{28})${A}`),
    severity: 'critical',
  },
  {
    id: 'gcp-service-account-key',
    provider: 'Google Cloud',
    label: 'Google service account private key',
    keywords: ['service_account'],
    regex: re(`"private_key"\\s{0,3}:\\s{0,3}"(-----BEGIN [A-Z ]{0,20}PRIVATE KEY-----[^"]{40,5000})"`),
    severity: 'critical',
    decide: (_s, ctx) =>
      near(ctx, /"type"\s*:\s*"service_account"/, 4000)
        ? { severity: 'critical', note: 'A service account key acts as the server: Firestore, Storage and every API the account may use, bypassing Security Rules.' }
        : null,
  },
  {
    id: 'fcm-server-key',
    provider: 'Firebase',
    label: 'Firebase Cloud Messaging server key',
    keywords: [':APA91b'],
    regex: re(`${B}(AAAA[\\w-]{7}:APA91b[\\w-]{100,200})${A}`),
    severity: 'high',
    note: 'Lets anyone send push notifications to your users.',
  },
  {
    id: 'azure-storage-key',
    provider: 'Azure',
    label: 'Azure storage account key',
    keywords: ['AccountKey='],
    regex: re(`AccountKey=([A-Za-z0-9+/]{86}==)`),
    severity: 'critical',
  },
  {
    id: 'digitalocean-token',
    provider: 'DigitalOcean',
    label: 'DigitalOcean token',
    keywords: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    regex: re(`${B}(do[opr]_v1_[a-f0-9]{64})${A}`),
    severity: 'critical',
  },
  {
    id: 'cloudflare-api-token',
    provider: 'Cloudflare',
    label: 'Cloudflare API token',
    keywords: [],
    keywordsCi: ['cloudflare', 'cf_api'],
    regex: assigned('cloudflare[\\w-]{0,12}(?:token|key)|cf_api_(?:token|key)', '[\\w-]{37,40}'),
    severity: 'critical',
    minEntropy: 3.5,
  },
  { id: 'heroku-api-key', provider: 'Heroku', label: 'Heroku API key', keywords: ['HRKU-'], regex: re(`${B}(HRKU-[A-Za-z0-9_-]{20,80})${A}`), severity: 'critical' },
  {
    id: 'heroku-legacy-api-key',
    provider: 'Heroku',
    label: 'Heroku API key',
    keywords: [],
    keywordsCi: ['heroku'],
    regex: assigned('heroku[\\w-]{0,12}(?:key|token)', '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'),
    severity: 'critical',
  },
  {
    id: 'vercel-token',
    provider: 'Vercel',
    label: 'Vercel access token',
    keywords: [],
    keywordsCi: ['vercel'],
    regex: assigned('vercel[\\w-]{0,12}(?:token|key)', '[A-Za-z0-9]{24}'),
    severity: 'critical',
    minEntropy: 3.5,
  },
  { id: 'netlify-token', provider: 'Netlify', label: 'Netlify access token', keywords: ['nfp_'], regex: re(`${B}(nfp_[A-Za-z0-9]{36})${A}`), severity: 'critical' },
  {
    id: 'doppler-token',
    provider: 'Doppler',
    label: 'Doppler token',
    keywords: ['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.', 'dp.scim.', 'dp.audit.'],
    regex: re(`${B}(dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9]{40,44})${A}`),
    severity: 'critical',
    note: 'Doppler tokens open the whole secrets vault of a project or workspace.',
  },
  {
    id: 'tailscale-key',
    provider: 'Tailscale',
    label: 'Tailscale key',
    keywords: ['tskey-'],
    regex: re(`${B}(tskey-(?:api|auth|client)-[A-Za-z0-9]{6,20}-[A-Za-z0-9]{20,40})${A}`),
    severity: 'critical',
  },
  {
    id: 'terraform-cloud-token',
    provider: 'HashiCorp',
    label: 'Terraform Cloud token',
    keywords: ['.atlasv1.'],
    regex: re(`${B}([A-Za-z0-9]{14}\\.atlasv1\\.[\\w=-]{60,70})${A}`),
    severity: 'critical',
  },
  {
    id: 'onepassword-service-token',
    provider: '1Password',
    label: '1Password service account token',
    keywords: ['ops_eyJ'],
    regex: re(`${B}(ops_eyJ[A-Za-z0-9+/=_-]{100,1200})`),
    severity: 'critical',
  },
  {
    id: 'grafana-token',
    provider: 'Grafana',
    label: 'Grafana token',
    keywords: ['glsa_', 'glc_'],
    regex: re(`${B}(glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,2})(?![\\w+/-])`),
    severity: 'critical',
  },

  // --- code hosting and packages
  { id: 'github-pat', provider: 'GitHub', label: 'GitHub personal access token', keywords: ['ghp_'], regex: re(`${B}(ghp_[A-Za-z0-9]{36})${A}`), severity: 'critical' },
  { id: 'github-oauth-token', provider: 'GitHub', label: 'GitHub OAuth access token', keywords: ['gho_'], regex: re(`${B}(gho_[A-Za-z0-9]{36})${A}`), severity: 'critical' },
  { id: 'github-user-token', provider: 'GitHub', label: 'GitHub App user-to-server token', keywords: ['ghu_'], regex: re(`${B}(ghu_[A-Za-z0-9]{36})${A}`), severity: 'critical' },
  { id: 'github-app-token', provider: 'GitHub', label: 'GitHub App installation token', keywords: ['ghs_'], regex: re(`${B}(ghs_[A-Za-z0-9]{36})${A}`), severity: 'critical' },
  { id: 'github-refresh-token', provider: 'GitHub', label: 'GitHub refresh token', keywords: ['ghr_'], regex: re(`${B}(ghr_[A-Za-z0-9]{36,76})${A}`), severity: 'critical' },
  {
    id: 'github-fine-grained-pat',
    provider: 'GitHub',
    label: 'GitHub fine-grained access token',
    keywords: ['github_pat_'],
    regex: re(`${B}(github_pat_[A-Za-z0-9_]{82})${A}`),
    severity: 'critical',
  },
  { id: 'gitlab-pat', provider: 'GitLab', label: 'GitLab access token', keywords: ['glpat-'], regex: re(`${B}(glpat-[\\w-]{20,60})${A}`), severity: 'critical' },
  {
    id: 'npm-token',
    provider: 'npm',
    label: 'npm access token',
    keywords: ['npm_'],
    regex: re(`${B}(npm_[A-Za-z0-9]{36})${A}`),
    severity: 'critical',
    minEntropy: 3.5,
    note: 'Lets anyone publish packages as you: a supply-chain risk for everyone who installs them.',
  },
  {
    id: 'pypi-token',
    provider: 'PyPI',
    label: 'PyPI upload token',
    keywords: ['pypi-AgEIcHlwaS5vcmc'],
    regex: re(`${B}(pypi-AgEIcHlwaS5vcmc[\\w-]{50,300})${A}`),
    severity: 'critical',
  },
  {
    id: 'shopify-access-token',
    provider: 'Shopify',
    label: 'Shopify admin access token',
    keywords: ['shpat_', 'shpca_', 'shppa_'],
    regex: re(`${B}(shp(?:at|ca|pa)_[a-fA-F0-9]{32})${A}`),
    severity: 'critical',
  },
  {
    id: 'shopify-shared-secret',
    provider: 'Shopify',
    label: 'Shopify app shared secret',
    keywords: ['shpss_'],
    regex: re(`${B}(shpss_[a-fA-F0-9]{32})${A}`),
    severity: 'critical',
  },
  {
    id: 'atlassian-api-token',
    provider: 'Atlassian',
    label: 'Atlassian API token',
    keywords: ['ATATT3'],
    regex: re(`${B}(ATATT3[A-Za-z0-9_=-]{150,220})(?![\\w=-])`),
    severity: 'critical',
  },
  { id: 'postman-api-key', provider: 'Postman', label: 'Postman API key', keywords: ['PMAK-'], regex: re(`${B}(PMAK-[a-f0-9]{24}-[a-f0-9]{34})${A}`), severity: 'critical' },
  { id: 'figma-token', provider: 'Figma', label: 'Figma access token', keywords: ['figd_'], regex: re(`${B}(figd_[\\w-]{40,80})${A}`), severity: 'high' },
  { id: 'linear-api-key', provider: 'Linear', label: 'Linear API key', keywords: ['lin_api_'], regex: re(`${B}(lin_api_[A-Za-z0-9]{40})${A}`), severity: 'critical' },
  {
    id: 'notion-token',
    provider: 'Notion',
    label: 'Notion integration token',
    keywords: ['secret_', 'ntn_'],
    regex: re(`${B}(secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{46})${A}`),
    severity: 'critical',
    minEntropy: 4,
  },
  {
    id: 'airtable-pat',
    provider: 'Airtable',
    label: 'Airtable personal access token',
    keywords: ['pat'],
    regex: re(`${B}(pat[A-Za-z0-9]{14}\\.[a-f0-9]{64})${A}`),
    severity: 'critical',
  },
  {
    id: 'contentful-management-token',
    provider: 'Contentful',
    label: 'Contentful management token',
    keywords: ['CFPAT-'],
    regex: re(`${B}(CFPAT-[\\w-]{43})${A}`),
    severity: 'critical',
  },

  // --- messaging and email
  {
    id: 'slack-bot-token',
    provider: 'Slack',
    label: 'Slack bot token',
    keywords: ['xoxb-'],
    regex: re(`${B}(xoxb-[0-9]{10,13}-[0-9]{10,13}-[A-Za-z0-9]{20,40})${A}`),
    severity: 'critical',
  },
  {
    id: 'slack-user-token',
    provider: 'Slack',
    label: 'Slack user token',
    keywords: ['xoxp-', 'xoxe-'],
    regex: re(`${B}(xox[pe](?:-[0-9]{10,13}){3}-[a-f0-9]{28,34})${A}`),
    severity: 'critical',
  },
  {
    id: 'slack-app-token',
    provider: 'Slack',
    label: 'Slack app-level token',
    keywords: ['xapp-'],
    regex: re(`${B}(xapp-\\d-[A-Z0-9]{9,12}-\\d{10,14}-[a-f0-9]{60,70})${A}`),
    severity: 'critical',
  },
  // Slack, Discord, Teams and Google Chat webhook URLs: engine/secrets/webhooks.ts (automation-webhook-in-client).
  {
    id: 'discord-bot-token',
    provider: 'Discord',
    label: 'Discord bot token',
    keywords: [],
    keywordsCi: ['discord'],
    regex: re(`${B}([MNO][A-Za-z0-9_-]{23,27}\\.[\\w-]{6}\\.[\\w-]{27,40})${A}`),
    severity: 'critical',
    minEntropy: 4,
  },
  { id: 'telegram-bot-token', provider: 'Telegram', label: 'Telegram bot token', keywords: [':AA'], regex: re(`(?<![\\d:])(\\d{8,10}:AA[\\w-]{33})${A}`), severity: 'critical' },
  {
    id: 'sendgrid-api-key',
    provider: 'SendGrid',
    label: 'SendGrid API key',
    keywords: ['SG.'],
    regex: re(`${B}(SG\\.[\\w-]{22}\\.[\\w-]{43})${A}`),
    severity: 'critical',
    note: 'Anyone can send email from your verified domains.',
  },
  { id: 'twilio-api-key', provider: 'Twilio', label: 'Twilio API key SID', keywords: ['SK'], keywordsCi: ['twilio'], regex: re(`${B}(SK[0-9a-f]{32})${A}`), severity: 'high' },
  {
    id: 'twilio-auth-token',
    provider: 'Twilio',
    label: 'Twilio auth token',
    keywords: [],
    keywordsCi: ['twilio'],
    regex: assigned('twilio[\\w-]{0,12}(?:auth_?)?token|auth_?token', '[a-f0-9]{32}'),
    severity: 'critical',
  },
  {
    id: 'twilio-account-sid',
    provider: 'Twilio',
    label: 'Twilio account SID',
    keywords: ['AC'],
    keywordsCi: ['twilio'],
    regex: re(`${B}(AC[a-f0-9]{32})${A}`),
    severity: 'info',
    public: true,
    note: 'An account identifier, harmless alone; the auth token or an API key secret must never reach the browser.',
  },
  { id: 'mailgun-api-key', provider: 'Mailgun', label: 'Mailgun API key', keywords: ['key-'], regex: re(`${B}(key-[a-f0-9]{32})${A}`), severity: 'critical' },
  {
    id: 'mailchimp-api-key',
    provider: 'Mailchimp',
    label: 'Mailchimp API key',
    keywords: ['-us'],
    keywordsCi: ['mailchimp'],
    regex: re(`${B}([a-f0-9]{32}-us\\d{1,2})${A}`),
    severity: 'critical',
  },
  {
    id: 'resend-api-key',
    provider: 'Resend',
    label: 'Resend API key',
    keywords: ['re_'],
    regex: re(`${B}(re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24})${A}`),
    severity: 'critical',
    minEntropy: 3.5,
    note: 'Anyone can send email from your domain.',
  },
  {
    id: 'postmark-server-token',
    provider: 'Postmark',
    label: 'Postmark server token',
    keywords: [],
    keywordsCi: ['postmark'],
    regex: assigned('postmark[\\w-]{0,20}|x-postmark-server-token', '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'),
    severity: 'critical',
  },
  {
    id: 'pusher-secret',
    provider: 'Pusher',
    label: 'Pusher app secret',
    keywords: [],
    keywordsCi: ['pusher'],
    regex: assigned('pusher[\\w-]{0,12}secret', '[a-f0-9]{20}'),
    severity: 'critical',
  },

  // --- databases and backends
  {
    id: 'supabase-access-token',
    provider: 'Supabase',
    label: 'Supabase personal access token',
    keywords: ['sbp_'],
    regex: re(`${B}(sbp_[a-f0-9]{40})${A}`),
    severity: 'critical',
    note: 'A management API token: it can read and change every project of the account, including database passwords.',
  },
  {
    id: 'supabase-secret-key',
    provider: 'Supabase',
    label: 'Supabase secret key',
    keywords: ['sb_secret_'],
    regex: re(`${B}(sb_secret_[\\w-]{20,80})${A}`),
    severity: 'critical',
    decide: () => ({ severity: 'critical', dedicated: 'supabase-service-key' }),
  },
  {
    id: 'supabase-publishable-key',
    provider: 'Supabase',
    label: 'Supabase publishable key',
    keywords: ['sb_publishable_'],
    regex: re(`${B}(sb_publishable_[\\w-]{20,80})${A}`),
    severity: 'info',
    public: true,
    note: 'Meant for the browser: row level security (RLS) policies, not the key, protect each table.',
  },
  {
    id: 'supabase-jwt-key',
    provider: 'Supabase',
    label: 'Supabase key',
    keywords: ['eyJ'],
    regex: re(`${B}(eyJ[A-Za-z0-9_-]{8,600}\\.eyJ[A-Za-z0-9_-]{8,1500}\\.[A-Za-z0-9_-]{8,1000})${A}`),
    severity: 'info',
    decide: (secret) => {
      const claims = supabaseJwtRole(secret);
      if (!claims) return null;
      if (claims.role === 'service_role') return { severity: 'critical', label: 'Supabase service_role key', dedicated: 'supabase-service-key' };
      if (claims.role === 'anon')
        return { severity: 'info', public: true, label: 'Supabase anon key', note: 'Meant for the browser: row level security (RLS) policies, not the key, protect each table.' };
      return null; // a signed-in user's session token, not a shipped credential
    },
  },
  {
    id: 'database-url',
    provider: 'Database',
    label: 'Database connection string with password',
    keywords: ['://'],
    regex: re(`((?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\\+srv)?|rediss?|amqps?):\\/\\/[^\\s:@/'"\`]{1,64}:([^\\s@/'"\`]{3,128})@[^\\s/'"\`:?]{1,255})`),
    severity: 'critical',
    decide: (secret) => {
      const password = /:\/\/[^:]*:([^@]*)@/.exec(secret)?.[1] ?? '';
      if (/^(?:password|pass|passwd|secret|pwd|\*+|x+|\$\{.*\}|<.*>|\[.*\]|\{.*\}|your.*|changeme)$/i.test(password)) return null;
      if (/@(?:localhost|127\.0\.0\.1|0\.0\.0\.0|db|postgres|mysql|mongo|redis)(?:$|[:/])/i.test(secret)) {
        return { severity: 'low', note: 'Points at a local development database; still a password that should not ship.' };
      }
      return { severity: 'critical', note: 'Direct database access, bypassing the API and every access rule.' };
    },
  },
  {
    id: 'algolia-admin-key',
    provider: 'Algolia',
    label: 'Algolia admin API key',
    keywords: [],
    keywordsCi: ['algolia'],
    regex: assigned('admin_?(?:api_?)?key|algolia_?admin[\\w-]{0,8}|write_?api_?key', '[a-f0-9]{32}'),
    severity: 'critical',
    note: 'The admin key can rewrite or delete your indices; only a search-only key belongs in the browser.',
  },
  {
    id: 'mapbox-secret-token',
    provider: 'Mapbox',
    label: 'Mapbox secret token',
    keywords: ['sk.eyJ'],
    regex: re(`${B}(sk\\.eyJ[\\w-]{20,200}\\.[\\w-]{20,60})${A}`),
    severity: 'critical',
  },
  {
    id: 'mapbox-public-token',
    provider: 'Mapbox',
    label: 'Mapbox public token',
    keywords: ['pk.eyJ'],
    regex: re(`${B}(pk\\.eyJ[\\w-]{20,200}\\.[\\w-]{20,60})${A}`),
    severity: 'info',
    public: true,
    note: 'Meant for the browser; restrict it to your URLs in the Mapbox account to stop others billing map loads to you.',
  },
  // --- analytics: ingestion keys are public by design; personal API keys read everything
  {
    id: 'posthog-personal-key',
    provider: 'PostHog',
    label: 'PostHog personal API key',
    keywords: ['phx_'],
    regex: re(`${B}(phx_[A-Za-z0-9]{30,60})${A}`),
    severity: 'critical',
    note: 'Reads every event, person and recording of the organisation, and can change projects.',
  },
  {
    id: 'posthog-project-key',
    provider: 'PostHog',
    label: 'PostHog project API key',
    keywords: ['phc_'],
    regex: re(`${B}(phc_[A-Za-z0-9]{30,60})${A}`),
    severity: 'info',
    public: true,
    note: ANALYTICS_NOTE,
  },
  {
    id: 'segment-write-key',
    provider: 'Segment',
    label: 'Segment write key',
    keywords: [],
    keywordsCi: ['analytics.load', 'writekey', 'write_key'],
    regex: analyticsKey('analytics\\.load|AnalyticsBrowser\\.load', '(?:segment[\\w$-]{0,24})?write_?key', '[A-Za-z0-9]{20,64}'),
    severity: 'info',
    public: true,
    note: ANALYTICS_NOTE,
  },
  {
    id: 'mixpanel-project-token',
    provider: 'Mixpanel',
    label: 'Mixpanel project token',
    keywords: [],
    keywordsCi: ['mixpanel'],
    regex: analyticsKey('mixpanel\\.init', 'mixpanel[\\w$-]{0,24}(?:token|key)', '[a-f0-9]{32}'),
    severity: 'info',
    public: true,
    note: ANALYTICS_NOTE,
  },
  {
    id: 'amplitude-api-key',
    provider: 'Amplitude',
    label: 'Amplitude API key',
    keywords: [],
    keywordsCi: ['amplitude'],
    regex: analyticsKey('amplitude(?:\\.getInstance\\(\\))?\\.init|amplitude\\.add|initAmplitude', 'amplitude[\\w$-]{0,24}(?:api_?)?key', '[a-f0-9]{32}'),
    severity: 'info',
    public: true,
    note: ANALYTICS_NOTE,
  },
  {
    id: 'sentry-dsn',
    provider: 'Sentry',
    label: 'Sentry DSN',
    keywords: ['sentry', 'ingest'],
    regex: re(`(https://[a-f0-9]{32}@[\\w.-]{1,100}/\\d{1,12})`),
    severity: 'info',
    public: true,
    note: 'A DSN only lets clients send events; it is meant to be public. Use allowed domains and rate limits against spam.',
  },
  {
    id: 'sentry-org-token',
    provider: 'Sentry',
    label: 'Sentry organization auth token',
    keywords: ['sntrys_'],
    regex: re(`${B}(sntrys_[A-Za-z0-9+/=_-]{60,400})(?![\\w+/=-])`),
    severity: 'high',
    note: 'Belongs in CI (source map upload), never in the bundle.',
  },
  { id: 'sentry-user-token', provider: 'Sentry', label: 'Sentry user auth token', keywords: ['sntryu_'], regex: re(`${B}(sntryu_[a-f0-9]{64})${A}`), severity: 'critical' },
  {
    id: 'datadog-api-key',
    provider: 'Datadog',
    label: 'Datadog API key',
    keywords: [],
    keywordsCi: ['datadog', 'dd_api'],
    regex: assigned('dd_?api_?key|datadog[\\w-]{0,12}api_?key', '[a-f0-9]{32}'),
    severity: 'critical',
  },
  {
    id: 'datadog-app-key',
    provider: 'Datadog',
    label: 'Datadog application key',
    keywords: [],
    keywordsCi: ['datadog', 'dd_app'],
    regex: assigned('dd_?app(?:lication)?_?key|datadog[\\w-]{0,12}app(?:lication)?_?key', '[a-f0-9]{40}'),
    severity: 'critical',
  },
  {
    id: 'datadog-client-token',
    provider: 'Datadog',
    label: 'Datadog client token',
    keywords: ['pub'],
    keywordsCi: ['datadog', 'clienttoken'],
    regex: re(`${B}(pub[a-f0-9]{32})${A}`),
    severity: 'info',
    public: true,
    note: 'Client tokens are made for browser RUM and logs; they cannot read data.',
  },
  { id: 'newrelic-user-key', provider: 'New Relic', label: 'New Relic user API key', keywords: ['NRAK-'], regex: re(`${B}(NRAK-[A-Z0-9]{27})${A}`), severity: 'critical' },
  { id: 'newrelic-insert-key', provider: 'New Relic', label: 'New Relic insert key', keywords: ['NRII-'], regex: re(`${B}(NRII-[\\w-]{32})${A}`), severity: 'high' },
  {
    id: 'newrelic-browser-key',
    provider: 'New Relic',
    label: 'New Relic browser license key',
    keywords: ['NRJS-'],
    regex: re(`${B}(NRJS-[a-f0-9]{19})${A}`),
    severity: 'info',
    public: true,
    note: 'The browser agent key is meant to be public.',
  },
  {
    id: 'private-key',
    provider: 'Cryptography',
    label: 'Private key',
    keywords: ['PRIVATE KEY-----'],
    regex: re(`(-----BEGIN (?:[A-Z0-9]{1,10} ){0,2}PRIVATE KEY(?: BLOCK)?-----[A-Za-z0-9+/=\\s\\\\]{64,400})`),
    severity: 'critical',
    decide: (secret) =>
      /EXAMPLE|\.\.\./.test(secret)
        ? null
        : { severity: 'critical', note: 'Whoever has the private key can impersonate its owner (sign tokens, decrypt traffic, log in over SSH).' },
  },
  {
    id: 'jwt',
    provider: 'JWT',
    label: 'Hard-coded JSON Web Token',
    keywords: ['eyJ'],
    // The signature may be empty: an unsigned (alg none) token is still a token, judged by jwt-alg-none.
    regex: re(`${B}(eyJ[A-Za-z0-9_-]{8,600}\\.eyJ[A-Za-z0-9_-]{8,1500}\\.[A-Za-z0-9_-]{0,1000})${A}`),
    severity: 'low',
    // In storage or request headers a JWT is the scanning browser's own session; only shipped ones are findings.
    decide: (_s, ctx) => (ctx.kind === 'storage' || ctx.kind === 'request' ? null : { severity: 'low' }),
  },
];

/** Names that make a quoted value a candidate for the generic rule. */
const GENERIC_NAME = /secret|api_?key|access_?key|token|passw(?:or)?d|pwd|private_?key|client_?secret|auth/gi;
/** Names that say the value is meant to be public or is not a credential at all. */
const GENERIC_NAME_IGNORE =
  /(?:domain|client_?id|app_?id|project_?id|measurement_?id|sender_?id)$|public|publishable|anon|site_?key|recaptcha|csrf|xsrf|nonce|page_?token|next_?token|cancel_?token|token_?type|tokenizer|author|oauth_?(?:url|endpoint)|key_?(?:name|id|path|prefix)|header|storage_?key|event|placeholder|label|field|input|param|cookie_?name|_?url$|endpoint/i;
/** Placeholder values people leave in code. */
const PLACEHOLDER =
  /your[_-]?|example|sample|dummy|placeholder|changeme|change_me|redacted|insert|replace|todo|xxxx|\*\*\*\*|process\.env|import\.meta|\$\{|<|>|^(?:undefined|null|true|false)$/i;

export interface GenericHit {
  name: string;
  secret: string;
  start: number;
  end: number;
  severity: Severity;
}

/**
 * High-entropy strings assigned to key-like names (`apiKey: "..."`, `"client_secret": "..."`, `API_TOKEN=...`).
 * Finds the name by a simple keyword scan, then reads the assignment with a sticky expression from there.
 */
export function findGenericSecrets(text: string, minEntropy: number, entropy: (value: string) => number): GenericHit[] {
  const hits: GenericHit[] = [];
  GENERIC_NAME.lastIndex = 0;
  // Groups: 1 rest of the name, 2 quote char of a quoted value, 3 quoted value, 4 unquoted value.
  const assignment = /([\w$.-]{0,30}?)["'\]]?\s{0,5}(?::=|=>|[:=])\s{0,5}(?:(["'`])([^"'`\s\\]{20,200})\2|([^\s"'`,;)}\]]{20,200})(?=[\s;]|$))/y;
  let m: RegExpExecArray | null;
  while ((m = GENERIC_NAME.exec(text))) {
    const keywordEnd = m.index + m[0].length;
    assignment.lastIndex = keywordEnd;
    const a = assignment.exec(text);
    if (!a) continue;
    let nameStart = m.index;
    while (nameStart > 0 && nameStart > m.index - 40 && /[\w$-]/.test(text[nameStart - 1]!)) nameStart--;
    const name = text.slice(nameStart, keywordEnd) + (a[1] ?? '');
    const quoted = a[3];
    const value = quoted ?? a[4];
    if (!value) continue;
    // Unquoted values only in env syntax: an upper-case name at the start of a line.
    if (quoted === undefined && !(/^[A-Z0-9_]+$/.test(name) && (nameStart === 0 || text[nameStart - 1] === '\n'))) continue;
    if (GENERIC_NAME_IGNORE.test(name) || PLACEHOLDER.test(value)) continue;
    if (!/\d/.test(value) || !/[A-Za-z]/.test(value)) continue;
    if (/^(?:https?:|\/|\.\/|data:)|\.(?:js|css|png|svg|jpe?g|json|html)$/i.test(value)) continue;
    // Made of words (a CSS class list, an i18n key, a route): not a credential.
    const segments = value.split(/[-_.:/]/);
    if (segments.length >= 3 && segments.every((part) => part.length <= 12 && /^[a-z]*(?:\d{1,2}[a-z]*)?$/i.test(part))) continue;
    if (entropy(value) < minEntropy) continue;
    const start = a.index + a[0].length - value.length - (quoted !== undefined ? 1 : 0);
    const strong = /passw|pwd|private|client_?secret|secret/i.test(name);
    hits.push({ name, secret: value, start, end: start + value.length, severity: strong ? 'high' : 'medium' });
    GENERIC_NAME.lastIndex = Math.max(GENERIC_NAME.lastIndex, a.index + a[0].length);
  }
  return hits;
}

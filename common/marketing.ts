// The public site's constants and its one call (spec sections 2, 5, 7, 8 and 9). The renderer shows these
// numbers and the server validates the public scan request with the same rules, so they live in one place.
// No zod here: the landing page imports this file and must stay small (the schemas are in public-scan.ts).

import { MARKETING_PLAN_TIERS, planClaims, type ClaimKey, type MarketingPlanId } from './plans';
import { normaliseSiteUrl } from './site-url';

/** Marketing timing (spec section 9). */
export const MARKETING_TIMING = {
  /** The URL status is recomputed this long after typing stops. */
  urlDebounceMs: 500,
  /** 'Testing...' is shown this long before the email dialog opens. */
  simulatedScanMs: 800,
  /** The cookie banner appears this long after load when no consent is stored. */
  consentBannerDelayMs: 1000,
  /** The tool logo strip moves one step this often. */
  logoStepMs: 30,
} as const;

/** The product's own domain: it and its subdomains are never scanned from the public form. */
export const OWN_DOMAIN = 'vibe-eval.com';

/** The product's addresses (footer, not-found page, press kit, affiliate program). */
export const CONTACT = {
  support: `support@${OWN_DOMAIN}`,
  press: `press@${OWN_DOMAIN}`,
  affiliates: `affiliates@${OWN_DOMAIN}`,
  sales: `sales@${OWN_DOMAIN}`,
  privacy: `privacy@${OWN_DOMAIN}`,
  legal: `legal@${OWN_DOMAIN}`,
} as const;

export const mailto = (address: string, subject?: string) => `mailto:${address}${subject ? `?subject=${encodeURIComponent(subject)}` : ''}`;

// --- The URL test form (spec section 5, "Marketing URL") -------------------------------------------------

export type UrlStatus = 'idle' | 'valid' | 'invalid' | 'lovable-project';

export const URL_MESSAGES = {
  invalid: 'Please enter a valid website URL',
  lovableProject: 'Please use the deployed URL for this project, not the Lovable editor URL',
  lovableBadge: 'Use deployed URL',
  valid: 'Ready to test for vulnerabilities',
  validBadge: 'Valid URL',
  email: 'Please enter a valid email address',
} as const;

/** The Lovable editor's project pages (lovable.dev/projects/<id>) are not the deployed app. */
export function isLovableEditorUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return (host === 'lovable.dev' || host.endsWith('.lovable.dev')) && /^\/projects\//i.test(url.pathname);
}

/** True for vibe-eval.com and any subdomain of it. */
export function isOwnDomain(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === OWN_DOMAIN || host.endsWith(`.${OWN_DOMAIN}`);
}

/** The email rule of the marketing forms (zod's own email pattern, so client and server agree). */
export const EMAIL_PATTERN = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export function isValidEmail(value: string): boolean {
  const email = value.trim();
  return email.length <= 254 && EMAIL_PATTERN.test(email);
}

export interface UrlCheck {
  status: UrlStatus;
  /** The URL that would be tested (scheme added), for valid and lovable-project input. */
  url?: string;
  /** True when the host is the product's own domain: submitting opens the 'Nice try, hacker!' dialog. */
  ownDomain?: boolean;
}

/** The status of what was typed into the URL test form. Empty input is idle. */
export function checkMarketingUrl(input: string): UrlCheck {
  if (input.trim() === '') return { status: 'idle' };
  // The dashboard's and the API's reading of an address: the same site is the same project wherever it was typed.
  const normalised = normaliseSiteUrl(input);
  if (!normalised) return { status: 'invalid' };
  const url = new URL(normalised);
  if (isLovableEditorUrl(url)) return { status: 'lovable-project', url: normalised };
  return { status: 'valid', url: normalised, ownDomain: isOwnDomain(url.hostname) };
}

/** Submit is disabled while submitting, on blank input, and for invalid or Lovable editor URLs. */
export function canSubmitUrl(input: string, status: UrlStatus, submitting: boolean): boolean {
  return !submitting && input.trim() !== '' && status !== 'invalid' && status !== 'lovable-project';
}

// --- Demo examples and the demo report card (spec section 2) ---------------------------------------------

export const DEMO_TYPES = ['ecommerce', 'social', 'banking'] as const;
export type DemoType = (typeof DEMO_TYPES)[number];
export type SampleType = DemoType | 'default';

/** The public demo apps the three example buttons stand for; the public scan call sends these URLs. */
export const DEMO_URLS: Record<DemoType, string> = {
  ecommerce: 'https://shop-demo.lovable.app/',
  social: 'https://social-demo.lovable.app/',
  banking: 'https://bank-demo.lovable.app/',
};

export const DEMO_LABELS: Record<DemoType, string> = {
  ecommerce: 'E-commerce store',
  social: 'Social network',
  banking: 'Banking dashboard',
};

export interface SampleReport {
  title: string;
  critical: string[];
  moderate: string[];
  /** Critical / moderate / secure components, as the card's summary shows them. */
  counts: { critical: number; moderate: number; secure: number };
}

export const SAMPLE_REPORT_FOOTER = { duration: 'Scan completed in 2.3 seconds', agent: 'AI Agent: SecurityBot-v2' } as const;
export const SAMPLE_SECURE_ROW = 'Application Configuration Secure';

/** The marketing preview's four sample reports, counts as in spec section 2. */
export const SAMPLE_REPORTS: Record<SampleType, SampleReport> = {
  ecommerce: {
    title: 'E-commerce Store Security Report',
    critical: ['Supabase service_role key shipped in the checkout bundle', 'Orders table readable without signing in'],
    moderate: ['No Content-Security-Policy on the storefront', 'Session cookie without the Secure flag'],
    counts: { critical: 2, moderate: 2, secure: 12 },
  },
  social: {
    title: 'Social Network Security Report',
    critical: ['Profiles table exposes email and phone to anonymous users'],
    moderate: ['Avatar bucket lists every uploaded file', 'Clickjacking possible: no frame-ancestors or X-Frame-Options'],
    counts: { critical: 1, moderate: 2, secure: 15 },
  },
  banking: {
    title: 'Banking Dashboard Security Report',
    critical: ['Stripe secret key found in a lazily loaded chunk', 'Transactions table readable with the public anon key', '.env file served at the site root'],
    moderate: ['Source maps reveal the full application source'],
    counts: { critical: 3, moderate: 1, secure: 8 },
  },
  default: {
    title: 'Website Security Report',
    critical: ['API key with write access exposed in JavaScript'],
    moderate: ['Missing HTTP Strict-Transport-Security header'],
    counts: { critical: 1, moderate: 1, secure: 10 },
  },
};

// --- The public scan call (spec section 7) -----------------------------------------------------------------

export const PUBLIC_SCAN_PATH = '/v2/vibe-scanner';

export const PUBLIC_SCAN_MESSAGES = {
  submitFailed: 'Failed to submit your request. Please try again.',
  emailFailed: 'Failed to save your email. Please try again.',
  noDemoType: 'Something went wrong. Please try again.',
  emailSubmitted: 'Email submitted successfully!',
  confirmation: 'We will send your detailed security analysis to your email shortly.',
  ownDomainTitle: 'Nice try, hacker! 😎',
  ownDomainText: "You can't scan vibeeval with vibeeval. Try the address of an app you built instead.",
  ownDomainButton: 'Okay, my bad!',
  ownDomainRefused: `${OWN_DOMAIN} cannot be scanned with itself`,
} as const;

// --- Plans and prices (spec section 9) -----------------------------------------------------------------------

export type PlanId = MarketingPlanId;

/** A plan the marketing site sells; what it allows is its tier's limits (common/plans.ts MARKETING_PLAN_TIERS). */
export interface MarketingPlan {
  id: PlanId;
  name: string;
  /** Whole US dollars. */
  price: number;
  period: 'month' | 'one-time';
  trialDays?: number;
  moneyBackDays?: number;
  support: string;
  cta: string;
  highlighted?: boolean;
}

/**
 * What every plan has (no limit counts these), then the two Basic lacks that no limit counts either (spec section 9
 * names four; API access and customizable schedules come from the limits).
 */
export const PLAN_FEATURES = {
  common: ['Unlimited URL security scans', 'Supabase and Firebase exposure checks', 'Secret and API key detection'],
  proOnly: ['CI/CD secret scanning', 'Automated remediation'],
} as const;

export const MARKETING_PLANS: readonly MarketingPlan[] = [
  { id: 'basic', name: 'Basic', price: 7, period: 'month', trialDays: 14, support: 'Email support within 48 h', cta: 'Start free trial' },
  { id: 'pro', name: 'Pro', price: 15, period: 'month', trialDays: 14, support: 'Email support within 24 h', cta: 'Start free trial', highlighted: true },
  { id: 'lifetime', name: 'Lifetime Pro', price: 149, period: 'one-time', moneyBackDays: 30, support: '24/7 chat support', cta: 'Buy lifetime access' },
];

export interface MarketingFeature {
  label: string;
  included: boolean;
  /** The limit the line states, when it states one (common/plans.test.ts holds it to the enforced number). */
  claim?: ClaimKey | 'schedules';
}

/**
 * A plan's list on the pricing section: what its limits promise (projects, users, scenarios, report formats,
 * schedules, API), its support, what every plan has, then what Basic lacks, struck through where missing.
 */
export function marketingFeatures(plan: MarketingPlan): MarketingFeature[] {
  const { tier, limits } = MARKETING_PLAN_TIERS[plan.id];
  const customSchedules = limits.monitorFrequencies.filter((frequency) => frequency !== 'off').length > 1;
  const lines: MarketingFeature[] = [
    ...planClaims(limits).map(({ key, label, included }) => ({ label, included, claim: key })),
    { label: plan.support, included: true },
    ...PLAN_FEATURES.common.map((label) => ({ label, included: true })),
    { label: 'Customizable schedules', included: customSchedules, claim: 'schedules' },
    ...PLAN_FEATURES.proOnly.map((label) => ({ label, included: tier !== 'basic' })),
  ];
  // What the plan has first, then what it lacks (a stable sort keeps each group's order).
  return lines.sort((a, b) => Number(b.included) - Number(a.included));
}

/** The hosted checkout page of each plan; it opens outside the app (a new tab, or the system browser). */
export const CHECKOUT_LINKS: Record<PlanId, string> = {
  basic: `https://${OWN_DOMAIN}/checkout/basic`,
  pro: `https://${OWN_DOMAIN}/checkout/pro`,
  lifetime: `https://${OWN_DOMAIN}/checkout/lifetime`,
};

// --- Affiliate program (spec section 9) -----------------------------------------------------------------------

export const AFFILIATE = {
  recurringRatePercent: 30,
  recurringMonths: 12,
  /** Commission per paying month: 30% of $7 and of $15. */
  basicMonthly: 2.1,
  proMonthly: 4.5,
  lifetimeRatePercent: 20,
  /** 20% of $149, once. */
  lifetimeOnce: 29.8,
  cookieDays: 90,
  minimumPayout: 50,
  wireTransferOver: 500,
  payoutDayOfMonth: 10,
  bonusPercent: 5,
  bonusReferralsPerMonth: 10,
  launchBonus: 25,
  launchBonusAffiliates: 50,
  launchBonusWithinDays: 30,
} as const;

// --- Cookie consent (spec sections 2 and 7: saved only locally) ----------------------------------------------

export const COOKIE_CONSENT_KEY = 'cookie-consent';

export interface CookieConsent {
  necessary: true;
  analytics: boolean;
  marketing: boolean;
}

/** A stored consent, or null when there is none or it is not one we wrote. */
export function parseCookieConsent(raw: string | null): CookieConsent | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    if (value?.necessary === true && typeof value.analytics === 'boolean' && typeof value.marketing === 'boolean') {
      return { necessary: true, analytics: value.analytics, marketing: value.marketing };
    }
  } catch {
    // Not JSON: treated as no consent, and replaced when the visitor chooses.
  }
  return null;
}

// --- Monitoring script (spec section 9; the script itself ships with continuous testing) -------------------

export const MONITORING = {
  minIntervalMs: 300_000,
  maxRunsPerDay: 12,
  staleAfterHours: 24,
} as const;

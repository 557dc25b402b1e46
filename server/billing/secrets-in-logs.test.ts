import { describe, expect, it } from 'vitest';
import { scrubText, scrubUrl } from '../log-scrub';

// Stripe's secrets never reach a log line: the API key (sk_live_/sk_test_, restricted rk_) and the webhook
// signing secret (whsec_), wherever they appear in a message, a stack or a request URL.

describe('Stripe secrets in logs', () => {
  const key = 'sk_live_51Hx9aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';
  const restricted = 'rk_test_51Hx9aBcDeFgHiJkLmNoPqRsTuV';
  const webhookSecret = 'whsec_5f3c9a0e1d2b4c6e8f0a1b2c3d4e5f60';

  it('blanks them in any text', () => {
    expect(scrubText(`Stripe refused ${key} today`)).toBe('Stripe refused sk_live_[redacted] today');
    expect(scrubText(`STRIPE_SECRET_KEY=${restricted}`)).toBe('STRIPE_SECRET_KEY=rk_test_[redacted]');
    expect(scrubText(`secret ${webhookSecret}`)).toBe('secret whsec_[redacted]');
    expect(scrubText(`Authorization: Bearer ${key}`)).not.toContain(key.slice(8));
  });

  it('blanks them in request URLs', () => {
    expect(scrubUrl(`/stripe/webhook/${key}`)).toBe('/stripe/webhook/sk_live_[redacted]');
    expect(scrubUrl(`/plans?note=${webhookSecret}`)).toBe('/plans?note=whsec_[redacted]');
  });

  it('leaves ids that only look alike', () => {
    expect(scrubText('subscription sub_1Nx price price_local_pro_month task_test_1')).toBe('subscription sub_1Nx price price_local_pro_month task_test_1');
  });
});

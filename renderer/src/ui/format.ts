import type { MarketingPlan } from '@common/marketing';

/** US dollars as the site writes them: whole amounts without cents ($50), others with two decimals ($2.10). */
export function usd(amount: number): string {
  const cents = Number.isInteger(amount) ? 0 : 2;
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: cents, maximumFractionDigits: cents })}`;
}

/** 1 → '1st', 10 → '10th', 22 → '22nd'. */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

/** '$7/month' or '$149 one-time'. */
export function planPrice(plan: MarketingPlan): string {
  return plan.period === 'month' ? `${usd(plan.price)}/month` : `${usd(plan.price)} one-time`;
}

/** The plan with this id; the list in common/marketing.ts always has all three. */
export function planById(plans: readonly MarketingPlan[], id: MarketingPlan['id']): MarketingPlan {
  const plan = plans.find((p) => p.id === id);
  if (!plan) throw new Error(`no plan ${id}`);
  return plan;
}

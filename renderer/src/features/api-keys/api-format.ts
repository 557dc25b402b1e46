import { API_DAILY_LIMITS, API_KEY_PREFIX, API_KEY_TEXTS, API_PLAN_NAMES, API_PLANS, createApiKeyBodySchema, type ApiPlan, type ApiUsage } from '@common/api-keys';
import { plural } from '@common/plural';

/** How a listed key is shown: the prefix, an ellipsis and its last four characters ('vb_live_…a1B2'). */
export function maskedKey(lastFour: string): string {
  return `${API_KEY_PREFIX}…${lastFour}`;
}

/** The create form's check: the trimmed name, or the spec's error ('Name required' / 'Please provide a name…'). */
export function checkKeyName(name: string): { ok: true; name: string } | { ok: false; title: string; description: string } {
  const parsed = createApiKeyBodySchema.safeParse({ name });
  if (parsed.success) return { ok: true, name: parsed.data.name };
  const message = parsed.error.issues[0]?.message ?? API_KEY_TEXTS.nameRequired;
  return { ok: false, title: message === API_KEY_TEXTS.nameRequired ? API_KEY_TEXTS.nameRequiredTitle : 'Invalid name', description: message };
}

/** A daily limit as the plans table writes it: '1,000 requests / day', or 'Custom' for Enterprise. */
export function formatLimit(limit: number | null): string {
  return limit === null ? 'Custom' : `${limit.toLocaleString('en-US')} requests / day`;
}

/** The plans and their daily limits, in the spec's order (Free, Pro, Team, Enterprise). */
export const PLAN_ROWS: { plan: ApiPlan; name: string; limit: string }[] = API_PLANS.map((plan) => ({
  plan,
  name: API_PLAN_NAMES[plan],
  limit: formatLimit(API_DAILY_LIMITS[plan]),
}));

/** Today's usage against the limit: the bar's percentage (null with no fixed limit) and its label. */
export function usageView(usage: ApiUsage): { percent: number | null; label: string; exhausted: boolean } {
  const used = usage.used_today.toLocaleString('en-US');
  // No API access (Basic): no allowance to measure against; the screen offers the upgrade beside it.
  if (usage.plan === null) return { percent: null, label: `${plural(usage.used_today, 'request')} today`, exhausted: false };
  if (usage.limit === null) return { percent: null, label: `${plural(usage.used_today, 'request')} today (custom limit)`, exhausted: false };
  const percent = Math.min(100, Math.round((usage.used_today / usage.limit) * 100));
  return { percent, label: `${used} of ${usage.limit.toLocaleString('en-US')} requests today`, exhausted: usage.used_today >= usage.limit };
}

import { z } from 'zod';
import { API_PLANS } from './plans';

// API keys and the public API's plans (spec sections 2 API, 3 Local API key, 4 API key creation, 5 API key name,
// 6 API plans, 9 API rate limits and API key format). The server issues the keys and keeps only their hash; the
// key itself is sent once, in the answer to POST /api_keys.

/** 'vb_live_' plus 26 random letters and digits. */
export const API_KEY_PREFIX = 'vb_live_';
export const API_KEY_RANDOM_LENGTH = 26;
export const API_KEY_PATTERN = /^vb_live_[A-Za-z0-9]{26}$/;

export const API_KEY_TEXTS = {
  nameRequiredTitle: 'Name required',
  nameRequired: 'Please provide a name for your API key',
  savedKey: "I've saved my key",
} as const;

export const API_KEY_NAME_MAX = 100;

/** POST /api_keys body: the name is trimmed and required. */
export const createApiKeyBodySchema = z
  .object({
    name: z.string({ message: API_KEY_TEXTS.nameRequired }).trim().min(1, API_KEY_TEXTS.nameRequired).max(API_KEY_NAME_MAX, `name: cannot exceed ${API_KEY_NAME_MAX} characters`),
  })
  .strict();

/** A key as GET /api_keys lists it: never the key itself. */
export const apiKeySchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  /** The key's last four characters, to tell keys apart ('vb_live_…' + last_four). */
  last_four: z.string(),
  created_at: z.string(),
  last_used: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** POST /api_keys answer: the only time the key is sent. */
export const createdApiKeySchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  key: z.string().regex(API_KEY_PATTERN),
  created_at: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** API plans (rate limits only): requests per UTC day. Enterprise is custom (null: no fixed daily limit). */
export { API_PLANS, API_PLAN_NAMES, API_DAILY_LIMITS, type ApiPlan } from './plans';

/** GET /api_usage (dashboard, signed in): the plan, today's requests to /v1 and the limit. */
export const apiUsageSchema = z.object({
  /** null: the account's plan has no API access (Basic); the screen offers the upgrade. */
  plan: z.enum(API_PLANS).nullable(),
  /** Requests counted today (UTC). */
  used_today: z.number().int().nonnegative(),
  /** The daily limit; null for a custom (Enterprise) plan or no API access. */
  limit: z.number().int().positive().nullable(),
  /** When today's count starts again: the next midnight UTC, ISO 8601. */
  resets_at: z.string(),
});
export type ApiUsage = z.infer<typeof apiUsageSchema>;

import { describe, expect, it } from 'vitest';
import { SENSITIVE_FIELD_NAMES, isSensitiveField, normaliseFieldName, sensitiveFields } from './sensitive-fields';

describe('sensitive field names', () => {
  it('has about 60 names', () => {
    expect(SENSITIVE_FIELD_NAMES.length).toBeGreaterThanOrEqual(40);
  });
  it.each(['email', 'Email', 'passwordHash', 'password_hash', 'reset_token', 'user_email', 'phoneNumber', 'credit-card', 'stripe_customer_id', 'date_of_birth'])(
    'flags %s',
    (name) => expect(isSensitiveField(name)).toBe(true),
  );
  it.each(['id', 'created_at', 'title', 'avatar_url', 'tokenizer', 'full_name', 'emails_sent_count'])('does not flag %s', (name) => expect(isSensitiveField(name)).toBe(false));
  it('normalises and filters', () => {
    expect(normaliseFieldName('apiKey')).toBe('api_key');
    expect(sensitiveFields(['id', 'email', 'bio'])).toEqual(['email']);
  });
});

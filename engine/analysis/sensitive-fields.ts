// Column and field names that hold credentials or personal data. Inspired by Supabase splinter's lint 0023
// (sensitive_columns_exposed), extended with the personal data vibe-coded apps keep in profile tables.
const SENSITIVE = [
  // credentials
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'password_hash',
  'hashed_password',
  'secret',
  'secret_key',
  'client_secret',
  'private_key',
  'api_key',
  'apikey',
  'auth_key',
  'token',
  'jwt',
  'access_token',
  'refresh_token',
  'session_token',
  'bearer_token',
  'auth_code',
  'session_secret',
  'recovery_code',
  'backup_code',
  'verification_code',
  'otp',
  'two_factor',
  'totp_secret',
  'mfa_secret',
  'stripe_customer_id',
  'webhook_secret',
  // identity and contact
  'email',
  'phone',
  'phone_number',
  'mobile',
  'address',
  'street',
  'postal_code',
  'zip',
  'ip_address',
  'ssn',
  'social_security_number',
  'dob',
  'date_of_birth',
  'birthdate',
  'birthday',
  'passport',
  'passport_number',
  'driver_license',
  'drivers_license',
  'national_id',
  'tax_id',
  // financial
  'credit_card',
  'card_number',
  'cvv',
  'cvc',
  'iban',
  'bank_account',
  'account_number',
  'routing_number',
  'swift_code',
  'salary',
  'income',
  // health
  'medical_record',
  'health_record',
  'diagnosis',
  'insurance_number',
] as const;

const SET = new Set<string>(SENSITIVE);

/** snake_case, lower-case form of a column name: passwordHash, Password-Hash → password_hash. */
export function normaliseFieldName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s.]+/g, '_')
    .toLowerCase();
}

/** True when the name is, starts with, ends with or contains (between underscores) a sensitive name. */
export function isSensitiveField(name: string): boolean {
  const n = normaliseFieldName(name);
  if (SET.has(n)) return true;
  for (const word of SENSITIVE) {
    if (n.startsWith(`${word}_`) || n.endsWith(`_${word}`) || n.includes(`_${word}_`)) return true;
  }
  return false;
}

/** The sensitive names among the given ones, in their original spelling. */
export function sensitiveFields(names: readonly string[]): string[] {
  return names.filter(isSensitiveField);
}

export const SENSITIVE_FIELD_NAMES: readonly string[] = SENSITIVE;

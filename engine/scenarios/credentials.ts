import { parseScanAccounts } from '../../common/scan-accounts';
import type { Credentials } from './types';

/**
 * The test account a scenario signs in as: the first account of a project's Credentials field
 * ('user@example.com / password', 'email: ...' lines; see parseScanAccounts), or null when it holds none or
 * cannot be read.
 */
export function parseCredentials(secretInstruction: string | null): Credentials | null {
  if (!secretInstruction?.trim()) return null;
  const parsed = parseScanAccounts(secretInstruction, 'field');
  const first = parsed.ok ? parsed.accounts[0] : undefined;
  return first ? { username: first.login, password: first.password } : null;
}

import { fragmentParams } from '../../app/entry-location';

let shown = '';

/**
 * The `error_description` a provider or the auth server sent back in the URL fragment, once per fragment
 * (React may run an effect twice in development; the toast must not show twice).
 */
export function takeRedirectError(hash: string): string | undefined {
  const description = fragmentParams(hash).get('error_description');
  if (!description || hash === shown) return undefined;
  shown = hash;
  return description;
}

/** A recovery link's fragment carries type=recovery (with the session's tokens). */
export const isRecoveryFragment = (hash: string) => fragmentParams(hash).get('type') === 'recovery';

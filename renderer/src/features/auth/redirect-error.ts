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

/**
 * What the fragment of /reset-password says about the link that opened it: a recovery link to use, a link that did
 * not work (used or expired links come back from the auth server with an error; a malformed one lacks type=recovery),
 * or none (the page opened by hand).
 */
export function resetLinkOf(hash: string): 'recovery' | 'failed' | 'none' {
  const params = fragmentParams(hash);
  if (params.has('error') || params.has('error_description')) return 'failed';
  if (params.get('type') === 'recovery') return 'recovery';
  return [...params.keys()].length > 0 ? 'failed' : 'none';
}

const invalidLinksShown = new Set<string>();

/** True the first time a link is found invalid, so 'Invalid reset link' is toasted once (effects may run twice). */
export function takeInvalidResetLink(hash: string): boolean {
  if (invalidLinksShown.has(hash)) return false;
  invalidLinksShown.add(hash);
  return true;
}

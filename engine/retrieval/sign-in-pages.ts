// Which URLs are sign-in pages: where a site sends a visitor who needs a login, whether the server redirects there
// (HTTP) or the app's router does in the browser. Compared by whole path segments, never by a pattern over site text.

/** Path segments of sign-in pages (/login, /auth/sign-in, /users/sign_in, Clerk's and Auth0's hosted pages ...). */
const SIGN_IN_SEGMENTS = new Set(['login', 'log-in', 'signin', 'sign-in', 'sign_in', 'auth', 'authenticate', 'authorize', 'sso', 'session', 'sessions', 'account-login']);
/** The rest of the sign-in flow: a page of it that leads to sign-in is not a page behind a login. */
const AUTH_FLOW_SEGMENTS = new Set(['signup', 'sign-up', 'sign_up', 'register', 'logout', 'log-out', 'signout', 'sign-out', 'sign_out', 'forgot-password', 'reset-password']);

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/** The route's path segments: the path's, and a hash router's route (`/#/login`, `/#!/login?next=`) too. */
function routeSegments(url: URL): string[] {
  const segments = url.pathname.split('/');
  const hash = url.hash;
  if (hash.startsWith('#/') || hash.startsWith('#!/')) segments.push(...hash.slice(hash.indexOf('/')).split('?')[0]!.split('/'));
  return segments.map((segment) => segment.toLowerCase());
}

/** True when a URL names a sign-in page (/login, /auth/sign-in, /users/sign_in, /#/login ...). */
export function isLoginUrl(raw: string): boolean {
  const url = parseUrl(raw);
  return url !== undefined && routeSegments(url).some((segment) => SIGN_IN_SEGMENTS.has(segment));
}

/** True for any page of the sign-in flow (signing in or up, signing out, resetting a password). */
export function isAuthFlowUrl(raw: string): boolean {
  const url = parseUrl(raw);
  return url !== undefined && routeSegments(url).some((segment) => SIGN_IN_SEGMENTS.has(segment) || AUTH_FLOW_SEGMENTS.has(segment));
}

/**
 * Where a rendered page sent the browser to sign in, or undefined: its final URL, else the first route the app set by
 * the history API, when that is a sign-in page and the page asked for was not part of the sign-in flow.
 */
export function signInTarget(requested: string, finalUrl: string, historyRoutes: readonly string[]): string | undefined {
  if (isAuthFlowUrl(requested)) return undefined;
  return [finalUrl, ...historyRoutes].find(isLoginUrl);
}

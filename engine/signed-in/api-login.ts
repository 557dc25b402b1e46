// The site's own JSON login API, as its bundle calls it: `fetch("/api/auth/login", { method: "POST", body:
// JSON.stringify({ email, password }) })`. Found as literal paths in the scripts (never guessed), signed in with one
// POST, and the session kept from the answer: a token (`token`, `access_token`, `accessToken`, `jwt`, also under
// `data` or `session`) sent back as the bearer, or the session cookie the answer set.
import type { Exchange } from '../types';
import { jsonObject, needsEmail, type MethodAnswer, type MethodSession, type SignInMethodImpl } from './methods';

/** A login route in a script: an API-looking path ending in login / sign-in / session(s). Bounded, linear. */
export const LOGIN_API_PATH = /(["'`])((?:https?:\/\/[\w.:-]{1,100})?\/(?:[\w-]{1,30}\/){0,3}(?:login|log-in|signin|sign-in|sign_in|sessions?|authenticate))\1/g;
/** The path names an API (not a page): an API prefix or the auth segment before the login word. */
const API_SEGMENT = /\/(?:api|auth|v\d|rest|_api|backend|users?|accounts?)\//i;
/** Right before the path: a call sending it (fetch, axios/ky/instance .post). */
const CALL_BEFORE = /(?:fetch|\.post|\.request|\bky|\$fetch|ofetch)\)?\(\s{0,3}$/;

export interface LoginApi {
  url: string;
  /** The body field the bundle sends the login in. */
  field: 'email' | 'username';
}

/** Login API routes a script names, with the field they take (read near the call), most specific first. */
export function findLoginApis(texts: ReadonlyArray<{ text: string; kind: string }>, origin: string): LoginApi[] {
  const found = new Map<string, LoginApi>();
  for (const { text, kind } of texts) {
    if (kind === 'html' || !/log-?in|sign-?_?in|session|authenticate/i.test(text)) continue;
    LOGIN_API_PATH.lastIndex = 0;
    for (const m of text.matchAll(LOGIN_API_PATH)) {
      const path = m[2]!;
      const before = text.slice(Math.max(0, m.index - 12), m.index);
      if (!API_SEGMENT.test(path) && !CALL_BEFORE.test(before)) continue;
      let url: URL;
      try {
        url = new URL(path, origin);
      } catch {
        continue;
      }
      // The site's own API only: another origin's login is another service.
      if (url.origin !== origin || found.has(url.href) || found.size >= 3) continue;
      const near = text.slice(m.index, m.index + 400);
      const field = /\busername\b/.test(near) && !/\bemail\b/.test(near) ? 'username' : 'email';
      found.set(url.href, { url: url.href, field });
    }
  }
  return [...found.values()];
}

const TOKEN_KEYS = ['token', 'access_token', 'accessToken', 'jwt', 'id_token', 'idToken', 'authToken', 'auth_token'] as const;

/** The token of a login answer: at its top level or under data / session / auth. */
function tokenOf(body: Record<string, unknown>): string | undefined {
  for (const holder of [body, body.data, body.session, body.auth, body.tokens]) {
    if (holder === null || typeof holder !== 'object') continue;
    const record = holder as Record<string, unknown>;
    const token = TOKEN_KEYS.map((key) => record[key]).find((v): v is string => typeof v === 'string' && v.length >= 8);
    if (token) return token;
  }
  return undefined;
}

function userIdOf(body: Record<string, unknown>): string | undefined {
  const data = (body.data ?? {}) as Record<string, unknown>;
  const user = (body.user ?? data.user ?? {}) as Record<string, unknown>;
  const id = [user.id, user._id, user.uid, body.userId, body.user_id, body.uid].find((v) => typeof v === 'string' || typeof v === 'number');
  return id === undefined ? undefined : String(id);
}

/** The cookies an answer set, as a Cookie header value, and their values (secrets). */
export function setCookies(exchange: Exchange): { cookie?: string; values: string[] } {
  const pairs = exchange.headers
    .filter(([name]) => name.toLowerCase() === 'set-cookie')
    .map(([, value]) => value.split(';', 1)[0]!.trim())
    .filter((pair) => pair.includes('=') && pair.split('=', 2)[1] !== '')
    .slice(0, 20);
  return { cookie: pairs.length > 0 ? pairs.join('; ') : undefined, values: pairs.map((pair) => pair.slice(pair.indexOf('=') + 1)) };
}

/** The site's words when it refused (`error`, `message`, `detail`), bounded. */
export function siteRefusal(exchange: Exchange, what: string): string {
  if (exchange.status === 0) return `${what} got no answer: ${exchange.error ?? 'no response'}.`;
  const body = jsonObject(exchange.body) ?? {};
  const error = body.error;
  const text = [body.message, body.error_description, body.detail, typeof error === 'object' && error ? (error as Record<string, unknown>).message : error].find(
    (v): v is string => typeof v === 'string' && v.length > 0,
  );
  return `${what} was refused: HTTP ${exchange.status}${text ? `, "${text.slice(0, 200)}"` : ', no reason given'}.`;
}

/** Signing in through the site's JSON login API at `api.url`. */
export function apiLoginMethod(api: LoginApi): SignInMethodImpl {
  const what = `The site's login API (POST ${new URL(api.url).pathname})`;
  return {
    method: 'api',
    refuseLogin: (login) => (api.field === 'email' && !login.includes('@') ? needsEmail(`the site's login API (POST ${new URL(api.url).pathname})`) : undefined),
    async signIn(fetcher, account): Promise<MethodAnswer> {
      const exchange = await fetcher.fetch({
        method: 'POST',
        url: api.url,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ [api.field]: account.login, password: account.password }),
        noRedirect: true,
        repeatable: true,
      });
      if (exchange.status < 200 || exchange.status > 299) return { ok: false, reason: siteRefusal(exchange, what) };
      const body = jsonObject(exchange.body) ?? {};
      const token = tokenOf(body);
      const cookies = setCookies(exchange);
      if (!token && !cookies.cookie) return { ok: false, reason: `${what} answered HTTP ${exchange.status} without a token or a session cookie.` };
      const session: MethodSession = {
        credential: token ? { bearer: token, cookie: cookies.cookie } : { cookie: cookies.cookie },
        userId: userIdOf(body),
        secrets: [...(token ? [token] : []), ...cookies.values],
      };
      return { ok: true, session };
    },
  };
}

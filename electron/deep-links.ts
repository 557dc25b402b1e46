import { z } from 'zod';
import { invitationTokenSchema } from '../common/workspaces';

/** The custom scheme the app registers with the OS (without the colon). */
export const DEEP_LINK_SCHEME = 'vibeeval';

/** Links longer than this are refused before parsing: no legitimate link comes close. */
export const MAX_DEEP_LINK_LENGTH = 4096;

const opaqueToken = z
  .string()
  .min(1)
  .max(2048)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII only');
const reportId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

/** A link the app acts on. Secrets (code, fragment) must never be logged: log `describeDeepLink` instead. */
export const deepLinkSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('auth-callback'), code: opaqueToken, state: opaqueToken }),
  z.object({ kind: z.literal('auth-error'), error: z.string().min(1).max(512), state: opaqueToken.optional() }),
  // The fragment is kept as received (without '#'): the renderer's recovery page reads it.
  z.object({ kind: z.literal('password-recovery'), fragment: opaqueToken.max(4096) }),
  z.object({ kind: z.literal('project'), projectId: z.string().uuid() }),
  z.object({ kind: z.literal('report'), reportId }),
  // A workspace invitation (vibeeval://invite?token=vbi_…): the token is a secret, like the auth code.
  z.object({ kind: z.literal('invite'), token: invitationTokenSchema }),
]);
export type DeepLink = z.infer<typeof deepLinkSchema>;

function parseUrl(raw: unknown): URL | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_DEEP_LINK_LENGTH) return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== `${DEEP_LINK_SCHEME}:`) return null;
    if (url.username !== '' || url.password !== '' || url.port !== '') return null;
    return url;
  } catch {
    return null;
  }
}

/** Path segments after the host; null if any is empty, encoded, or a dot segment. */
function pathSegments(url: URL): string[] | null {
  // One leading slash, and one trailing slash tolerated; '//' anywhere else is refused.
  const path = url.pathname.replace(/^\//, '').replace(/\/$/, '');
  if (path === '') return [];
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('%'))) return null;
  return segments;
}

function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

function candidate(url: URL): unknown {
  const segments = pathSegments(url);
  if (segments === null) return null;
  const route = [url.hostname, ...segments].join('/');
  const params = url.searchParams;
  if (route === 'auth/callback' && url.hash === '') {
    const error = single(params, 'error_description') ?? single(params, 'error');
    if (params.has('error')) return { kind: 'auth-error', error, state: single(params, 'state') };
    return { kind: 'auth-callback', code: single(params, 'code'), state: single(params, 'state') };
  }
  if (route === 'reset-password' && url.search === '') {
    const fragment = url.hash.slice(1);
    const hash = new URLSearchParams(fragment);
    // The session of a redeemed link, or why the link failed (expired, used): the reset page shows either.
    const session = hash.get('type') === 'recovery' && Boolean(hash.get('access_token'));
    if (!session && !hash.get('error')) return null;
    return { kind: 'password-recovery', fragment };
  }
  if (route === 'invite' && url.hash === '') {
    const token = single(params, 'token');
    return [...params.keys()].every((key) => key === 'token') ? { kind: 'invite', token } : null;
  }
  if (url.search !== '' || url.hash !== '') return null;
  if (url.hostname === 'project' && segments.length === 1) return { kind: 'project', projectId: segments[0] };
  if (url.hostname === 'report' && segments.length === 1) return { kind: 'report', reportId: segments[0] };
  return null;
}

/** Parses a `vibeeval://` link; anything unknown, malformed or oversized gives null. */
export function parseDeepLink(raw: unknown): DeepLink | null {
  const url = parseUrl(raw);
  if (!url) return null;
  const result = deepLinkSchema.safeParse(candidate(url));
  return result.success ? result.data : null;
}

/** A loggable form of a raw link: scheme, host and path only (query and fragment may hold secrets). */
export function describeDeepLink(raw: unknown): string {
  const url = parseUrl(raw);
  if (!url) return '<not a vibeeval link>';
  return `${url.protocol}//${url.hostname}${url.pathname}`.slice(0, 200);
}

/** The first `vibeeval://` argument in a process argv (first launch or second instance), if any. */
export function findDeepLinkArg(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}://`));
}

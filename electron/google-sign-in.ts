import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { IpcEventPayload } from '../common/ipc';
import type { DeepLink } from './deep-links';

/** How long the app waits for the browser to come back through vibeeval://auth/callback. */
export const PENDING_SIGN_IN_TTL_MS = 10 * 60 * 1000;
/** Where the server (ours or a hosted Supabase project) sends the browser back to. */
export const DESKTOP_CALLBACK = 'vibeeval://auth/callback';
const REQUEST_TIMEOUT_MS = 15_000;

type AuthEvent = IpcEventPayload<'vibeeval:event:auth'>;

/** What the sign-in needs from the app (Electron and the network in the app, fakes in tests). */
export interface GoogleSignInDeps {
  /** The embedded server's origin once it runs, else null. */
  serverOrigin(): string | null;
  /** Opens an http(s) URL in the system browser (shell.ts openExternalSafely). */
  openExternal(url: string): Promise<boolean>;
  /** Delivers the outcome to the app window (events.ts sendEvent on 'vibeeval:event:auth'). */
  send(event: AuthEvent): void;
  fetch?: typeof fetch;
  now?: () => number;
  /** Where ignored links are reported; never given a code, a state or a token. */
  log?: (message: string) => void;
}

export interface GoogleSignIn {
  /** Opens Google sign-in in the system browser; false when it could not be started (the reason is sent as an event). */
  start(): Promise<boolean>;
  /** Acts on an auth-callback or auth-error link; anything that does not belong to the pending sign-in is ignored. */
  receive(link: Extract<DeepLink, { kind: 'auth-callback' | 'auth-error' }>): Promise<void>;
}

const webUrl = z
  .string()
  .max(2048)
  .refine((value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol), 'must be an http(s) URL');
/** The server's /app-config: which auth server the app signs in with (ours, or a hosted Supabase project). */
const appConfigSchema = z.object({ supabaseUrl: webUrl, supabaseAnonKey: z.string().min(1).max(4096) });
/** GoTrue's answer to the PKCE grant, the part the app hands on. */
const sessionSchema = z.object({ access_token: z.string().min(1).max(16_384), refresh_token: z.string().min(1).max(2048) });
/** GoTrue's error answer, in its older and newer shapes. */
const errorSchema = z.object({ msg: z.string().optional(), error_description: z.string().optional(), message: z.string().optional() });

interface Pending {
  state: string;
  verifier: string;
  authUrl: string;
  anonKey: string;
  expiresAt: number;
}

const sameSecret = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

const shortMessage = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 300) || 'Unknown error';

/**
 * Sign-in with Google for the desktop app: the flow runs in the system browser (Google does not allow sign-in in
 * embedded views) and returns through vibeeval://auth/callback with a one-time code, which only this process can
 * redeem: it alone holds the PKCE verifier. One sign-in is pending at a time; starting again replaces it.
 */
export function createGoogleSignIn(deps: GoogleSignInDeps): GoogleSignIn {
  const doFetch = deps.fetch ?? fetch;
  const now = deps.now ?? Date.now;
  const log = deps.log ?? ((message: string) => console.warn(message));
  let pending: Pending | null = null;

  const fail = (message: string) => deps.send({ kind: 'error', message: shortMessage(message) });

  async function authServer(): Promise<z.infer<typeof appConfigSchema>> {
    const origin = deps.serverOrigin();
    if (!origin) throw new Error('The vibeeval server is not running.');
    const response = await doFetch(`${origin}/app-config`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`The vibeeval server answered ${response.status}.`);
    const parsed = appConfigSchema.safeParse(await response.json());
    if (!parsed.success) throw new Error('The vibeeval server sent an unexpected configuration.');
    return parsed.data;
  }

  async function start(): Promise<boolean> {
    try {
      const config = await authServer();
      const state = randomBytes(24).toString('base64url');
      const verifier = randomBytes(32).toString('base64url');
      const authUrl = config.supabaseUrl.replace(/\/+$/, '');
      const url = new URL(`${authUrl}/auth/v1/authorize`);
      url.searchParams.set('provider', 'google');
      url.searchParams.set('redirect_to', `${DESKTOP_CALLBACK}?state=${state}`);
      url.searchParams.set('code_challenge', createHash('sha256').update(verifier).digest('base64url'));
      url.searchParams.set('code_challenge_method', 's256');
      pending = { state, verifier, authUrl, anonKey: config.supabaseAnonKey, expiresAt: now() + PENDING_SIGN_IN_TTL_MS };
      if (await deps.openExternal(url.toString())) return true;
      pending = null;
      fail('The system browser could not be opened.');
      return false;
    } catch (error) {
      pending = null;
      fail((error as Error).message);
      return false;
    }
  }

  /** The pending sign-in this link belongs to, taken (a link works once); null when it belongs to none. */
  function take(state: string | undefined, kind: string): Pending | null {
    if (!pending) {
      log(`vibeeval: ignored a Google sign-in ${kind} link: no sign-in is pending`);
      return null;
    }
    if (state === undefined || !sameSecret(state, pending.state)) {
      log(`vibeeval: ignored a Google sign-in ${kind} link: its state does not match the pending sign-in`);
      return null;
    }
    const taken = pending;
    pending = null;
    return taken;
  }

  async function exchange(flow: Pending, code: string): Promise<AuthEvent> {
    const response = await doFetch(`${flow.authUrl}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: flow.anonKey },
      body: JSON.stringify({ auth_code: code, code_verifier: flow.verifier }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = errorSchema.safeParse(body);
      const message = error.success ? (error.data.msg ?? error.data.error_description ?? error.data.message) : undefined;
      return { kind: 'error', message: shortMessage(message ?? `The sign-in could not be completed (${response.status}).`) };
    }
    const session = sessionSchema.safeParse(body);
    if (!session.success) return { kind: 'error', message: 'The sign-in server sent an unexpected answer.' };
    return { kind: 'signed-in', accessToken: session.data.access_token, refreshToken: session.data.refresh_token };
  }

  async function receive(link: Extract<DeepLink, { kind: 'auth-callback' | 'auth-error' }>): Promise<void> {
    const flow = take(link.state, link.kind === 'auth-callback' ? 'callback' : 'error');
    if (!flow) return;
    if (flow.expiresAt <= now()) {
      fail('The sign-in with Google took too long. Please try again.');
      return;
    }
    if (link.kind === 'auth-error') {
      fail(link.error);
      return;
    }
    try {
      deps.send(await exchange(flow, link.code));
    } catch (error) {
      fail(`The sign-in could not be completed: ${(error as Error).message}`);
    }
  }

  return { start, receive };
}

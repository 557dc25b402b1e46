import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GOOGLE_NOT_CONFIGURED } from '../../common/auth';
import { ProviderRefusedError, ProviderUnavailableError, type OidcProvider } from './google-provider';
import type { ClientChallenge, OauthFlow, ProviderSignIn, SetAside } from './provider-sign-in';
import type { AuthRateLimits } from './rate-limit';
import { AuthError, type AuthService, type ClientInfo } from './service';

/** The desktop app's return address: exactly this, with any query (the app's own state). */
const DESKTOP_CALLBACK = { protocol: 'vibeeval:', hostname: 'auth', pathname: '/callback' };

export interface ProviderRoutesOptions {
  service: AuthService;
  limits: Pick<AuthRateLimits, 'providerSignInStart'>;
  /** Google's side and our flows; null when the server has no Google client. */
  google: { provider: OidcProvider; signIn: ProviderSignIn } | null;
  origin: () => string;
  /** redirect_to checked against our own and the allowed origins (routes.ts). */
  safeRedirect: (requested: string | null | undefined, fallbackPath: string) => string;
  /** Told (once committed) of an account a sign-in set aside: mails its address the link that moves its records. */
  onSetAside: (account: SetAside, request: FastifyRequest) => void;
}

const clientInfo = (request: FastifyRequest): ClientInfo => ({ ip: request.ip, userAgent: request.headers['user-agent'] });
const param = z.string().max(4096).optional();

/**
 * Where a failed sign-in goes. A PKCE client (supabase-js, the desktop app) reads the error from its redirect_to's
 * query, as GoTrue sends it; an implicit one is sent to /login, the page that shows the error of a redirect (the
 * dashboard it asked for would only send the signed-out user on to /login without it).
 */
function failure(target: string, pkce: boolean, code: string, description: string) {
  const url = new URL(target);
  const params = { error: code === 'access_denied' ? 'access_denied' : 'invalid_request', error_code: code, error_description: description };
  if (pkce) {
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url.toString();
  }
  const login = url.protocol === 'http:' || url.protocol === 'https:' ? new URL('/login', url.origin) : url;
  login.hash = new URLSearchParams(params).toString();
  return login.toString();
}

/** GET /authorize?provider=google and GET /callback: the server as Google's OpenID Connect client (local mode). */
export async function providerRoutes(app: FastifyInstance, options: ProviderRoutesOptions) {
  const { google, origin } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const callbackUri = () => `${origin()}/auth/v1/callback`;

  /** A checked redirect_to: our own or an allowed origin, or exactly the desktop app's callback. */
  const returnAddress = (requested: string | null | undefined) => {
    if (requested && URL.canParse(requested)) {
      const url = new URL(requested);
      const desktop = Object.entries(DESKTOP_CALLBACK).every(([key, value]) => url[key as keyof typeof DESKTOP_CALLBACK] === value);
      if (desktop && url.hash === '' && url.username === '' && url.password === '' && url.port === '') return url.toString();
    }
    return options.safeRedirect(requested, '/dashboard');
  };

  r.get(
    '/authorize',
    {
      schema: {
        querystring: z.object({
          provider: z.string().max(64).default(''),
          redirect_to: param,
          code_challenge: z
            .string()
            .min(43)
            .max(128)
            .regex(/^[\w.~-]+$/)
            .optional(),
          code_challenge_method: z.enum(['s256', 'plain', 'S256']).optional(),
        }),
      },
    },
    async (request, reply) => {
      const { provider, redirect_to, code_challenge, code_challenge_method } = request.query;
      const target = returnAddress(redirect_to);
      const client: ClientChallenge | undefined =
        code_challenge && code_challenge_method ? { challenge: code_challenge, method: code_challenge_method.toLowerCase() as 's256' | 'plain' } : undefined;
      const fail = (code: string, description: string) => reply.redirect(failure(target, Boolean(client), code, description), 303);
      if (provider !== 'google') return fail('provider_disabled', 'Unsupported provider: provider is not enabled');
      if (!google) return fail('provider_disabled', GOOGLE_NOT_CONFIGURED);
      try {
        await options.limits.providerSignInStart(request.ip);
      } catch (error) {
        if (error instanceof AuthError) return fail(error.code, error.message);
        throw error;
      }
      const flow = await google.signIn.startFlow(target, client);
      try {
        const url = await google.provider.authorizationUrl({ redirectUri: callbackUri(), ...flow });
        return await reply.redirect(url.toString(), 303);
      } catch (error) {
        if (!(error instanceof ProviderUnavailableError)) throw error;
        await google.signIn.takeFlow(flow.state);
        request.log.warn({ provider }, error.message);
        return fail('provider_unavailable', error.message);
      }
    },
  );

  r.get('/callback', { schema: { querystring: z.object({ code: param, state: param, error: param, error_description: param }).passthrough() } }, async (request, reply) => {
    const flow = google ? await google.signIn.takeFlow(request.query.state ?? '') : undefined;
    if (!google || !flow) {
      // Unknown, expired or already used: nothing says where the client wanted to return.
      const description = 'OAuth state mismatch: this sign-in link is unknown, expired or was already used. Please start again.';
      return reply.redirect(failure(`${origin()}/login`, false, 'bad_oauth_state', description), 303);
    }
    const pkce = Boolean(flow.codeChallenge && flow.codeChallengeMethod);
    const fail = (code: string, description: string) => reply.redirect(failure(flow.redirectTo, pkce, code, description), 303);
    if (request.query.error) {
      const cancelled = request.query.error === 'access_denied';
      return fail(
        cancelled ? 'access_denied' : 'provider_error',
        cancelled ? 'Sign-in with Google was cancelled.' : `Google refused the sign-in (${request.query.error.slice(0, 100)}).`,
      );
    }
    try {
      const target = await completeSignIn(request, options, google, flow, request.query.state ?? '');
      return await reply.redirect(target, 303);
    } catch (error) {
      if (error instanceof AuthError) return fail(error.code, error.message);
      if (error instanceof ProviderRefusedError || error instanceof ProviderUnavailableError) {
        request.log.warn({ provider: 'google' }, error.message);
        return fail('provider_error', error.message);
      }
      throw error;
    }
  });
}

/** Redeems Google's code, finds or makes the account, and returns where the client goes with its code or session. */
async function completeSignIn(
  request: FastifyRequest,
  { service, origin, onSetAside }: Pick<ProviderRoutesOptions, 'service' | 'origin' | 'onSetAside'>,
  { provider, signIn }: NonNullable<ProviderRoutesOptions['google']>,
  flow: OauthFlow,
  state: string,
) {
  const identity = await provider.identity(new URL(request.url, origin()), {
    state,
    nonce: flow.nonce,
    codeVerifier: flow.codeVerifier,
  });
  const user = await signIn.accountFor(identity, (account) => {
    service.forgetSessions();
    onSetAside(account, request);
  });
  const target = new URL(flow.redirectTo);
  if (flow.codeChallenge && flow.codeChallengeMethod) {
    const code = await service.createPkceCode(user.id, { challenge: flow.codeChallenge, method: flow.codeChallengeMethod }, 'oauth');
    target.searchParams.set('code', code);
    return target.toString();
  }
  const session = await service.issueSession(user, 'oauth', clientInfo(request));
  target.hash = new URLSearchParams({
    access_token: session.access_token,
    expires_at: String(session.expires_at),
    expires_in: String(session.expires_in),
    refresh_token: session.refresh_token,
    token_type: 'bearer',
  }).toString();
  return target.toString();
}

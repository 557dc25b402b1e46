import * as oidc from 'openid-client';
import { urlRefusal, type AddressPolicy } from '../../engine/retrieval/address-policy';

/** The claims of a verified ID token that sign-in needs. */
export interface ProviderIdentity {
  subject: string;
  email: string;
  emailVerified: boolean;
  name?: string;
  picture?: string;
}

/** What the server needs from an OpenID Connect provider; the real one is Google through openid-client. */
export interface OidcProvider {
  /** The provider's authorization URL for one flow (code + PKCE S256 + state + nonce). */
  authorizationUrl(flow: { redirectUri: string; state: string; nonce: string; codeVerifier: string }): Promise<URL>;
  /** Redeems the code of the provider's callback URL, checking state, nonce and the PKCE verifier. */
  identity(callbackUrl: URL, flow: { state: string; nonce: string; codeVerifier: string }): Promise<ProviderIdentity>;
}

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  issuerUrl: string;
}

/** The provider could not be reached or answered with something unusable; the message is safe to show. */
export class ProviderUnavailableError extends Error {
  override name = 'ProviderUnavailableError';
}

/** The provider refused the code or its ID token failed a check; the message is safe to show. */
export class ProviderRefusedError extends Error {
  override name = 'ProviderRefusedError';
}

const REQUEST_TIMEOUT_SECONDS = 10;

/**
 * A fetch held to the server's outbound address rules, as scans are: the configured issuer's own host is allowed
 * explicitly (an administrator's choice, such as a provider on the local network or a stand-in in tests); any
 * other host the discovery document names must pass the rules.
 */
export function outboundFetch(policy: AddressPolicy, issuerUrl: string): oidc.CustomFetch {
  const issuerHost = new URL(issuerUrl).hostname.replace(/^\[|\]$/g, '');
  const allowed: AddressPolicy = { ...policy, allowList: [...(policy.allowList ?? []), issuerHost] };
  const verdicts = new Map<string, string | null>();
  return async (url, options) => {
    const refusal = await urlRefusal(allowed, url, verdicts);
    if (refusal) throw new ProviderUnavailableError(`The sign-in provider's address is refused: ${refusal}`);
    return fetch(url, options);
  };
}

/** Google (or any OpenID Connect issuer) through openid-client, discovered once, on first use. */
export function openIdProvider(settings: GoogleSettings, policy: AddressPolicy): OidcProvider {
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    discovered ??= discover(settings, policy).catch((error: unknown) => {
      // The next sign-in tries again: the issuer may just have been down.
      discovered = undefined;
      throw error;
    });
    return discovered;
  };
  return {
    async authorizationUrl({ redirectUri, state, nonce, codeVerifier }) {
      const config = await configuration();
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
    },
    async identity(callbackUrl, { state, nonce, codeVerifier }) {
      const config = await configuration();
      let claims: oidc.IDToken | undefined;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: codeVerifier,
          expectedState: state,
          expectedNonce: nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (error) {
        if (error instanceof ProviderUnavailableError) throw error;
        throw new ProviderRefusedError(`The sign-in provider refused the sign-in: ${(error as Error).message}`);
      }
      return identityFromClaims(claims);
    },
  };
}

/** The identity in an ID token's claims; refuses one without a subject or an email. */
export function identityFromClaims(claims: oidc.IDToken | undefined): ProviderIdentity {
  const email = typeof claims?.email === 'string' ? claims.email : '';
  if (!claims?.sub || !email) throw new ProviderRefusedError('The sign-in provider did not share an email address.');
  return {
    subject: claims.sub,
    email,
    // Google sends a boolean; some providers send the string "true".
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    name: typeof claims.name === 'string' ? claims.name.slice(0, 200) : undefined,
    picture: typeof claims.picture === 'string' && /^https:\/\//.test(claims.picture) ? claims.picture.slice(0, 1000) : undefined,
  };
}

async function discover(settings: GoogleSettings, policy: AddressPolicy): Promise<oidc.Configuration> {
  const issuer = new URL(settings.issuerUrl);
  try {
    const config = await oidc.discovery(issuer, settings.clientId, settings.clientSecret, undefined, {
      [oidc.customFetch]: outboundFetch(policy, settings.issuerUrl),
      timeout: REQUEST_TIMEOUT_SECONDS,
      // Plain http only for an issuer the administrator configured so (a local provider or a test's stand-in).
      execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
    });
    config.timeout = REQUEST_TIMEOUT_SECONDS;
    return config;
  } catch (error) {
    throw new ProviderUnavailableError(
      `Sign-in with Google is unavailable: the provider at ${issuer.origin} could not be reached or did not describe itself (${(error as Error).message}).`,
    );
  }
}

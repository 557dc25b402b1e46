import { describeJwtLocations, findJwts, jwtKey, isSessionToken, jwtMatch, maskWeakSecret, weakSecretOf } from '../analysis/jwts';
import { describeJwt } from '../secrets/jwt';
import { defineCheck, type FindingDraft } from '../types';

export const jwtWeakSecret = defineCheck({
  id: 'jwt-weak-secret',
  family: 'tokens',
  title: 'JSON Web Token signed with a guessable secret',
  severity: 'critical',
  confidence: 'high',
  cwe: 1391,
  owasp: 'A07',
  description:
    "Tries the signature of every HS256/HS384/HS512 token the site hands out, offline, against about 3,000 common and framework-default secrets (tutorial values, Supabase's local default, jwt.io's example, common passwords). A match means anyone can sign tokens the server trusts: any user, any role.",
  remediation:
    "Replace the secret with at least 32 random bytes (openssl rand -base64 32) kept in a server-only environment variable (not VITE_ or NEXT_PUBLIC_), which invalidates every token issued with the old one; for Supabase, rotate the project's JWT secret (or move to asymmetric signing keys) and reissue the anon and service keys. Prefer RS256/ES256 when other services verify the tokens.",
  references: [
    'https://datatracker.ietf.org/doc/html/rfc8725#section-3.5',
    'https://portswigger.net/web-security/jwt#brute-forcing-secret-keys',
    'https://supabase.com/docs/guides/auth/signing-keys',
  ],
  run(site) {
    const findings: FindingDraft[] = [];
    for (const jwt of findJwts(site)) {
      const secret = weakSecretOf(jwt.token);
      if (secret === undefined) continue;
      const first = jwt.locations[0]!;
      const what = isSessionToken(jwt) ? `session token "${jwt.name}"` : jwt.supabaseRole ? `Supabase ${jwt.supabaseRole} key` : `token in ${jwt.name}`;
      findings.push({
        url: first.url,
        title: `Forgeable ${jwt.alg} ${what}: signed with a common secret`,
        severity: 'critical',
        detail:
          `The ${what} (${describeJwt(jwt.token)}) is signed with "${maskWeakSecret(secret)}", a secret on the list of common and default values. ` +
          (jwt.supabaseRole
            ? 'The same secret signs service_role keys: anyone can mint one and bypass row level security.'
            : "Anyone can sign a token with any claims (another user's id, an admin role) that the server will accept."),
        evidence: {
          request: `GET ${first.url}`,
          response: `${describeJwtLocations(jwt)}\nclaims: ${describeJwt(jwt.token)}`,
          match: `${jwtMatch(jwt)}; alg ${jwt.alg}; secret ${maskWeakSecret(secret)}`,
        },
        key: jwtKey(jwt),
      });
    }
    return findings;
  },
});

import { describeJwtLocations, findJwts, jwtKey, isSessionToken, jwtMatch } from '../analysis/jwts';
import { describeJwt } from '../secrets/jwt';
import { defineCheck, type FindingDraft } from '../types';

export const jwtNoExpiry = defineCheck({
  id: 'jwt-no-expiry',
  family: 'tokens',
  title: 'JSON Web Token without an expiry',
  severity: 'low',
  confidence: 'high',
  cwe: 613,
  owasp: 'A07',
  description:
    'Reports JWTs without an "exp" claim: a session token in a cookie or browser storage that never expires stays valid for as long as its secret does, so a token stolen once (XSS, a shared computer, a log) works forever. Public API keys (Supabase anon keys) are not sessions and are left out.',
  remediation:
    'Issue short-lived access tokens with an exp claim (minutes to an hour, e.g. jwt.sign(payload, secret, { expiresIn: "15m" }) or jose\'s setExpirationTime("15m")) and renew them with a refresh token the server can revoke; verify exp on every request (jsonwebtoken does by default, unless ignoreExpiration is set).',
  references: [
    'https://datatracker.ietf.org/doc/html/rfc7519#section-4.1.4',
    'https://cheatsheetseries.owasp.org/cheatsheets/JSON_Web_Token_for_Java_Cheat_Sheet.html',
    'https://cwe.mitre.org/data/definitions/613.html',
  ],
  run(site) {
    const findings: FindingDraft[] = [];
    for (const jwt of findJwts(site)) {
      if ('exp' in jwt.payload) continue;
      // Supabase API keys are public by design (anon) or reported by supabase-service-key; neither is a session.
      if (jwt.supabaseRole === 'anon' || jwt.supabaseRole === 'service_role') continue;
      const session = isSessionToken(jwt);
      const first = jwt.locations[0]!;
      findings.push({
        url: first.url,
        title: session ? `Session token "${jwt.name}" never expires` : `JWT without expiry in ${jwt.name}`,
        severity: session ? 'medium' : 'low',
        detail: session
          ? `The site stores "${jwt.name}" in ${jwt.place === 'cookie' ? 'a cookie' : 'browser storage'} as a token without an exp claim (${describeJwt(jwt.token)}): once stolen, it stays valid until the signing secret changes.`
          : `A token without an exp claim (${describeJwt(jwt.token)}) is shipped in the site's code; whoever reads it can use it for as long as its secret is unchanged.`,
        evidence: {
          request: `GET ${first.url}`,
          response: describeJwtLocations(jwt),
          match: `${jwtMatch(jwt)} (claims: ${Object.keys(jwt.payload).slice(0, 12).join(', ') || 'none'})`,
        },
        key: jwtKey(jwt),
      });
    }
    return findings;
  },
});

import { describeJwtLocations, findJwts, jwtKey, isSessionToken, jwtMatch } from '../analysis/jwts';
import { describeJwt } from '../secrets/jwt';
import { defineCheck, type FindingDraft } from '../types';

export const jwtAlgNone = defineCheck({
  id: 'jwt-alg-none',
  family: 'tokens',
  title: 'JSON Web Token signed with "alg: none"',
  severity: 'high',
  confidence: 'high',
  cwe: 347,
  owasp: 'A07',
  description:
    'Decodes every JWT the site hands out (cookies, local and session storage, HTML and scripts) and reports those whose header says alg "none": an unsigned token anyone can rewrite. A session the site issues this way means its server accepts unsigned tokens; the scan never sends one to confirm it.',
  remediation:
    'Sign every token (HS256 with a long random secret, or RS256/ES256) and make the verifier accept only that algorithm, e.g. jwt.verify(token, secret, { algorithms: ["HS256"] }) in jsonwebtoken or jose\'s jwtVerify with algorithms set; never decode a token without verifying it, and reject "none" in any case.',
  references: [
    'https://datatracker.ietf.org/doc/html/rfc8725#section-3.1',
    'https://portswigger.net/web-security/jwt#accepting-tokens-with-no-signature',
    'https://cheatsheetseries.owasp.org/cheatsheets/JSON_Web_Token_for_Java_Cheat_Sheet.html',
  ],
  run(site) {
    const findings: FindingDraft[] = [];
    for (const jwt of findJwts(site)) {
      if (jwt.alg.toLowerCase() !== 'none') continue;
      const session = isSessionToken(jwt);
      const first = jwt.locations[0]!;
      findings.push({
        url: first.url,
        title: session ? `Session token "${jwt.name}" is unsigned (alg: ${jwt.alg})` : `Unsigned JWT (alg: ${jwt.alg}) shipped in ${jwt.name}`,
        severity: session ? 'critical' : 'high',
        detail: session
          ? `The site issues "${jwt.name}" as an unsigned token (${describeJwt(jwt.token)}). Whoever edits its claims (user id, role) becomes that user, if the server trusts what it issued.`
          : `An unsigned token (${describeJwt(jwt.token)}) is shipped in the site's code: it suggests the server, or a library it uses, accepts alg "none".`,
        evidence: { request: `GET ${first.url}`, response: describeJwtLocations(jwt), match: `${jwtMatch(jwt)} (header alg "${jwt.alg}", no signature)` },
        key: jwtKey(jwt),
      });
    }
    return findings;
  },
});

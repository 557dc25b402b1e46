/** A JSON Web Token's decoded parts; the signature is never checked (we only describe what a page ships). */
export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

function decodeSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Decodes header and payload of a compact JWT, or undefined when either is not a JSON object. */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[0] || !parts[1]) return undefined;
  const header = decodeSegment(parts[0]);
  const payload = decodeSegment(parts[1]);
  return header && payload ? { header, payload } : undefined;
}

function claim(payload: Record<string, unknown>, name: string): string | undefined {
  const value = payload[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** What a Supabase key JWT says about itself: its role and project ref. */
export function supabaseJwtRole(token: string): { role: string; ref?: string } | undefined {
  const jwt = decodeJwt(token);
  if (!jwt) return undefined;
  const iss = claim(jwt.payload, 'iss') ?? '';
  const role = claim(jwt.payload, 'role');
  const ref = claim(jwt.payload, 'ref');
  if (!role || !(iss === 'supabase' || iss.includes('supabase') || ref !== undefined)) return undefined;
  return { role, ref };
}

/** One line describing a JWT's claims without repeating values that identify a person (sub, email). */
export function describeJwt(token: string): string {
  const jwt = decodeJwt(token);
  if (!jwt) return 'not a decodable JWT';
  const parts: string[] = [];
  const alg = claim(jwt.header, 'alg');
  if (alg) parts.push(`alg ${alg}`);
  for (const name of ['iss', 'aud', 'role', 'scope']) {
    const value = claim(jwt.payload, name);
    if (value) parts.push(`${name} ${value.slice(0, 60)}`);
  }
  if ('sub' in jwt.payload) parts.push('has a subject (sub)');
  const exp = jwt.payload.exp;
  if (typeof exp === 'number') parts.push(`expires ${new Date(exp * 1000).toISOString().slice(0, 10)}`);
  else parts.push('no expiry');
  return parts.join(', ');
}

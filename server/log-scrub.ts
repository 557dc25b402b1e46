// What must never reach a log line, as text patterns: capability query strings (signed report links, live
// tickets, recovery and auth codes), bearer tokens, password hashes, and the values PostgreSQL and Drizzle put
// in their error texts (the parameters of a failed query, the key of a unique violation). Used by the logger
// (server/logging.ts) and by the CLI for the error lines it prints itself. Free of pino so the CLI stays light.

/** Paths whose query string is a capability: the whole query goes. */
const CAPABILITY_PATHS = [/^\/reports\//, /^\/report-preview/, /^\/live(?:\/|$|\?)/, /^\/v2\/vibe-scanner\/[^/]+\/report/, /^\/auth\/v1\/(?:verify|callback|authorize)/];

/** Query parameters whose value is a secret wherever they appear. */
const SECRET_PARAMS = /([?&](?:sig|signature|signed_url|ticket|token|token_hash|access_token|refresh_token|code|code_verifier|apikey|api_key|key|password|secret)=)[^&#\s"'<>]*/gi;

/** A dotted token from its first "eyJ" on (a JWT's header), the text before it kept as the old rule did. */
const JWT_REPLACEMENT = (token: string): string => {
  const start = token.indexOf('eyJ');
  return start === -1 ? token : `${token.slice(0, start)}[redacted jwt]`;
};

const TEXT_RULES: Array<[RegExp, string | ((match: string) => string)]> = [
  // Drizzle: "Failed query: <sql>\nparams: <values>" (in the message and in the stack's first lines).
  [/params: [\s\S]*?(?=\n[ \t]+at |$)/g, 'params: [redacted]'],
  // PostgreSQL's error details: "Key (email)=(a@b.c) already exists", "Failing row contains (...)".
  [/Key \(([^)]*)\)=\((?:[^()]|\([^()]*\))*\)/g, 'Key ($1)=([redacted])'],
  [/Failing row contains \((?:[^()]|\([^()]*\))*\)/g, 'Failing row contains ([redacted])'],
  // JSON web tokens (access tokens) and scrypt hashes, wherever they appear. A token is taken whole from the start
  // of its run of word characters (the lookbehind keeps the scan linear on a long run holding many "eyJ"), then
  // judged a JWT by its "eyJ" in the replacer below.
  [/(?<![\w-])[\w-]{8,}\.[\w-]{5,}\.[\w-]{5,}/g, JWT_REPLACEMENT],
  [/scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+/g, '[redacted hash]'],
  [/Bearer\s+[\w.~+/-]+=*/gi, 'Bearer [redacted]'],
  // Public API keys and webhook signing secrets, wherever they appear (a pasted header, an error text).
  [/vb_live_[A-Za-z0-9]+/g, 'vb_live_[redacted]'],
  [/whsec_[A-Za-z0-9+/=]+/g, 'whsec_[redacted]'],
  // Stripe's secret and restricted keys (STRIPE_SECRET_KEY), in an error text or a pasted configuration.
  [/\b(sk|rk)_(live|test)_[A-Za-z0-9]+/g, '$1_$2_[redacted]'],
];

/** A request URL as it may be logged: a capability path without its query, other paths with secret values blanked. */
export function scrubUrl(rawUrl: string): string {
  // A key pasted into a path or query (`/v1/scans/vb_live_…`) goes wherever it sits.
  const url = rawUrl.replace(/(vb_live_|whsec_|sk_live_|sk_test_|rk_live_|rk_test_)[A-Za-z0-9+/=]+/g, '$1[redacted]');
  const at = url.indexOf('?');
  if (at < 0) return url;
  const path = url.slice(0, at);
  if (CAPABILITY_PATHS.some((pattern) => pattern.test(path))) return `${path}?[redacted]`;
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** Any text (a message, a stack) with every secret pattern blanked. */
export function scrubText(text: string): string {
  let out = text.replace(SECRET_PARAMS, '$1[redacted]');
  for (const [pattern, replacement] of TEXT_RULES) out = typeof replacement === 'string' ? out.replace(pattern, replacement) : out.replace(pattern, replacement);
  // Capability URLs inside text: cut the query of any absolute or root-relative capability path.
  out = out.replace(/((?:https?:\/\/[^\s/"'<>]+)?\/(?:reports\/|report-preview|live|v2\/vibe-scanner\/)[^\s?"'<>]*)\?[^\s"'<>]*/g, '$1?[redacted]');
  return out;
}

/** An error's message for a line printed outside the logger (the CLI's own error lines). */
export function safeMessage(error: unknown): string {
  return scrubText(error instanceof Error ? error.message : String(error));
}

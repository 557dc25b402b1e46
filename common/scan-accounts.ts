// Test accounts for a signed-in scan: who the scanner signs in as, and how each sign-in went.
// A password lives only in the process that scans: never in a scan's result, options, report, log, event or webhook.

/** One test account of the scanned app (an email address or user name, and its password). */
export interface ScanAccount {
  login: string;
  password: string;
}

/** A signed-in scan uses at most this many accounts (two are enough to compare what each can reach). */
export const MAX_SCAN_ACCOUNTS = 2;

/** How the scanner signed in: the site's Supabase or Firebase auth, its login form in a browser, or its JSON login API. */
export const SIGN_IN_METHODS = ['supabase', 'firebase', 'form', 'api'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** What reading a list of accounts gives: the accounts, or the first line that could not be read and why. */
export type ParsedAccounts = { ok: true; accounts: ScanAccount[] } | { ok: false; line: number; message: string };

/**
 * Where the text comes from. `file`: `vibeeval scan --accounts` and `VIBEEVAL_SCAN_ACCOUNTS`, strictly one
 * `<login> <password>` per line. `field`: a project's Credentials field, which also takes `email / password` and the
 * prose forms people write there ("Email: x", "Password: y").
 */
export type AccountsFormat = 'file' | 'field';

/** The longest login a sign-in line reports (an email address is at most 320 characters). */
export const MAX_LOGIN_LENGTH = 320;

const USER_KEYS = 'e-?mail|user ?name|user|login';
const PASSWORD_KEYS = 'password|passwd|pass|pwd';
/** `email: x` / `Password = y` (the key may follow other words: "Test account email: x"). */
export const USER_KEY_PATTERN = new RegExp(`(?:^|[\\s(\\-*•,;])(?:${USER_KEYS})\\s*[:=]\\s*(\\S+)`, 'i');
export const PASSWORD_KEY_PATTERN = new RegExp(`(?:^|[\\s(\\-*•,;])(?:${PASSWORD_KEYS})\\s*[:=]\\s*(\\S+)`, 'i');
/** `user@example.com / secret` or `user@example.com:secret` on one line. */
export const EMAIL_PAIR_PATTERN = /(?:^|\s)([^\s/:"'`<>()@]+@(?:[^\s/:"'`<>()@.]+\.)+[^\s/:"'`<>()@.]+)\s*(?:\/|:)\s*(\S+)/;

/** Quotes and trailing punctuation that wrap a value in prose ("password: `abc`." → abc). */
export function cleanCredentialValue(value: string): string {
  return value
    .replace(/^["'`]+/, '')
    .replace(/(?<!["'`])["'`]+[.,;)]*$/, '')
    .replace(/(?<![.,;)])[.,;)]+$/, '');
}

const fail = (line: number, problem: string): ParsedAccounts => ({ ok: false, line, message: `line ${line}: ${problem}` });

/** `login rest-of-line`, split at the first run of whitespace; null when the line has no whitespace inside. */
function splitAtSpace(line: string): [string, string] | null {
  const at = line.search(/\s/);
  if (at < 0) return null;
  const rest = line.slice(at).trim();
  return rest ? [line.slice(0, at), rest] : null;
}

/** One field line without keys: `email / password`, `email:password`, `email password` or `name password`. */
function fieldLineAccount(line: string): ScanAccount | null {
  const pair = EMAIL_PAIR_PATTERN.exec(line);
  if (pair) {
    const password = cleanCredentialValue(pair[2]!);
    if (password) return { login: cleanCredentialValue(pair[1]!), password };
  }
  const split = splitAtSpace(line);
  if (!split) return null;
  const [login, rest] = split;
  if (login.includes('@')) return { login, password: rest };
  // A user name: exactly `name password` or `name / password`; more words read as a sentence, not an account.
  const password = rest.startsWith('/') ? rest.slice(1).trim() : rest;
  return password && !/\s/.test(password) ? { login, password } : null;
}

interface KeyValue {
  kind: 'login' | 'password';
  value: string;
  line: number;
}

/** The `email: x` / `password: y` values on a line, in the order they appear. */
function keyValues(text: string, line: number): KeyValue[] {
  const found: (KeyValue & { at: number })[] = [];
  const user = USER_KEY_PATTERN.exec(text);
  const pass = PASSWORD_KEY_PATTERN.exec(text);
  if (user) found.push({ kind: 'login', value: cleanCredentialValue(user[1]!), line, at: user.index });
  if (pass) found.push({ kind: 'password', value: cleanCredentialValue(pass[1]!), line, at: pass.index });
  return found.sort((a, b) => a.at - b.at).map(({ kind, value, line: n }) => ({ kind, value, line: n }));
}

type Numbered = { text: string; line: number };

/** Prose: each login pairs with the password next to it; lines without a key or an email pair are notes. */
function proseAccounts(lines: readonly Numbered[]): { accounts: (ScanAccount & { line: number })[] } | ParsedAccounts {
  const accounts: (ScanAccount & { line: number })[] = [];
  let open: Partial<Record<KeyValue['kind'], KeyValue>> = {};
  const unfinished = (kv: KeyValue) => fail(kv.line, kv.kind === 'login' ? 'an email or user name without its password' : 'a password without its email or user name');
  for (const { text, line } of lines) {
    const values = keyValues(text, line);
    // "Admin login: admin@example.com / secret": a key before an email pair.
    const pair = values.every((v) => v.kind === 'login') ? EMAIL_PAIR_PATTERN.exec(text) : null;
    const pairPassword = pair ? cleanCredentialValue(pair[2]!) : '';
    if (pair && pairPassword) {
      accounts.push({ login: cleanCredentialValue(pair[1]!), password: pairPassword, line });
      continue;
    }
    for (const kv of values) {
      const held = open[kv.kind];
      if (held) return unfinished(held);
      open[kv.kind] = kv;
      if (open.login && open.password) {
        if (!open.login.value || !open.password.value) return unfinished(open.login.value ? open.login : open.password);
        accounts.push({ login: open.login.value, password: open.password.value, line: Math.max(open.login.line, open.password.line) });
        open = {};
      }
    }
  }
  const left = open.login ?? open.password;
  return left ? unfinished(left) : { accounts };
}

/** Plain lines: every one must be an account. */
function lineAccounts(lines: readonly Numbered[], format: AccountsFormat): { accounts: (ScanAccount & { line: number })[] } | ParsedAccounts {
  const accounts: (ScanAccount & { line: number })[] = [];
  for (const { text, line } of lines) {
    let account: ScanAccount | null;
    if (format === 'file') {
      const split = splitAtSpace(text);
      account = split ? { login: split[0], password: split[1] } : null;
    } else {
      account = fieldLineAccount(text);
    }
    if (!account) {
      return fail(
        line,
        format === 'file'
          ? 'cannot read an account: write the email or user name, a space, then the password'
          : 'cannot read an account: write one account per line as "email password" or "email / password"',
      );
    }
    accounts.push({ ...account, line });
  }
  return { accounts };
}

/**
 * Reads test accounts, one per line (at most {@link MAX_SCAN_ACCOUNTS}); blank lines and lines starting with `#`
 * are skipped. A line is `<email or user name> <password>`: the password is the rest of the line after the first
 * run of spaces or tabs, so it may hold spaces inside but cannot start or end with one. The `field` format also
 * reads `email / password`, `email:password` and `Email: x` / `Password: y` prose (other prose lines are then notes).
 * A message names the line and never holds any of its text (a line that cannot be read may be a password).
 */
export function parseScanAccounts(text: string, format: AccountsFormat = 'file'): ParsedAccounts {
  const lines = text
    .split(/\r\n|[\r\n]/)
    .map((raw, index) => ({ text: raw.trim(), line: index + 1 }))
    .filter(({ text: t }) => t !== '' && !t.startsWith('#'));
  const prose = format === 'field' && lines.some(({ text: t }) => keyValues(t, 0).length > 0);
  const read = prose ? proseAccounts(lines) : lineAccounts(lines, format);
  if ('ok' in read) return read;
  const accounts: ScanAccount[] = [];
  const seen = new Map<string, number>();
  for (const { login, password, line } of read.accounts) {
    if (accounts.length === MAX_SCAN_ACCOUNTS) return fail(line, `a third account: a scan signs in as at most ${MAX_SCAN_ACCOUNTS} accounts`);
    if (login.length > MAX_LOGIN_LENGTH) return fail(line, `the email or user name is longer than ${MAX_LOGIN_LENGTH} characters`);
    const first = seen.get(login.toLowerCase());
    if (first !== undefined) return fail(line, `the same account as line ${first}`);
    seen.set(login.toLowerCase(), line);
    accounts.push({ login, password });
  }
  return { ok: true, accounts };
}

/** How a sign-in is named to people. */
export const SIGN_IN_METHOD_LABELS: Record<SignInMethod, string> = {
  supabase: 'Supabase Auth',
  firebase: 'Firebase Auth',
  form: 'the login form',
  api: 'the login API',
};

/** One account's sign-in as the scan's coverage records it (common/scan.ts `coverage.signIns`). */
export interface SignInOutcome {
  account: string;
  signedIn: boolean;
  method?: SignInMethod;
  reason?: string;
  /** The throwaway account an active scan created by signing up. */
  throwaway?: boolean;
}

/** One sentence per account: "Signed in as a@b.c with Supabase Auth" or "Could not sign in as a@b.c: why". */
export function describeSignIn(outcome: SignInOutcome): string {
  if (outcome.throwaway) {
    return outcome.signedIn
      ? `Signed up and signed in as ${outcome.account}, a throwaway account the scan created${outcome.reason ? `: ${outcome.reason}` : ''}`
      : `No throwaway account signed in: ${outcome.reason ?? 'no reason was given'}`;
  }
  if (outcome.signedIn) {
    const how = outcome.method ? ` with ${SIGN_IN_METHOD_LABELS[outcome.method]}` : '';
    return `Signed in as ${outcome.account}${how}${outcome.reason ? ` (${outcome.reason})` : ''}`;
  }
  return `Could not sign in as ${outcome.account}: ${outcome.reason ?? 'no reason was given'}`;
}

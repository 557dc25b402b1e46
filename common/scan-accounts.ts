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

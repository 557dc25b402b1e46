// The labelled accuracy corpus: small apps in the shapes AI coding tools produce, each weakness labelled with the check
// that must report it, and clean controls that must produce nothing at medium or above. `npm run bench:accuracy`
// scans every app and prints recall and precision per family; engine/testing/corpus/corpus.test.ts holds the goals.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CheckFamily, Severity } from '../../../common/scan';
import type { ScanAccount } from '../../../common/scan-accounts';
import type { FirebaseStandInOptions } from '../firebase-stand-in';
import type { StandInOptions } from '../postgrest-stand-in';

/** The shape of app an AI tool would have produced; the fixture imitates its HTML, bundles and routes. */
export type CorpusShape = 'vite-supabase' | 'next-supabase' | 'next-firebase' | 'vite-firebase' | 'express-api' | 'static' | 'sveltekit' | 'nuxt' | 'remix' | 'astro' | 'cra';

/** Where the app runs, known once its servers listen (bundles embed these URLs). */
export interface CorpusContext {
  /** The app's own origin, e.g. http://127.0.0.1:41234 (what the scan targets). */
  origin: string;
  /** The Supabase stand-in's base URL, when the app declared `supabase`. */
  supabaseUrl?: string;
}

/** A fixed answer; the harness adds a clean baseline of security headers unless `bareHeaders` is set. */
export interface CorpusResponse {
  status?: number;
  /** Defaults to text/html for strings starting with '<', application/javascript for .js paths, JSON otherwise. */
  contentType?: string;
  headers?: Record<string, string | string[]>;
  body: string;
  /** Serve without the harness's baseline headers (for apps whose weakness is a missing header). */
  bareHeaders?: boolean;
}

/** A route that needs the request (query, headers); it must answer. */
export type CorpusHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** A weakness the scan must report: a finding of this check (and page, when given) at or above `minSeverity`. */
export interface ExpectedFinding {
  checkId: string;
  /** A substring of the finding's URL, when the check may report on several pages. */
  path?: string;
  /** Defaults to 'low': the label is about being found, the check decides how bad. */
  minSeverity?: Severity;
}

export interface CorpusApp {
  /** Unique, kebab-case: '<shape>-<weakness>' or '<shape>-clean-<n>'. */
  id: string;
  shape: CorpusShape;
  /** One line: what is wrong with it (or 'clean control'). */
  title: string;
  /** A clean control: no finding at medium or above, and `expect` is empty. */
  control?: boolean;
  expect: ExpectedFinding[];
  /**
   * A signed-in scan: the test accounts the scan signs in as (users of the Supabase stand-in). Their sign-in, refresh
   * and sign-out are the only writes allowed, and are not counted as writes.
   */
  accounts?: ScanAccount[];
  /**
   * Scanned with `active: true`: the scan may create one throwaway account where sign-up is open. That one sign-up
   * (and the new account's sign-in, refresh and sign-out) is allowed; a second sign-up counts as a write, and any
   * sign-up at all in an app without this flag.
   */
  active?: boolean;
  /** Starts the Supabase stand-in (engine/testing/postgrest-stand-in.ts) with these tables and buckets. */
  supabase?: StandInOptions;
  /**
   * Starts the Firebase stand-in (engine/testing/firebase-stand-in.ts): the scan reaches firestore.googleapis.com,
   * <db>.firebaseio.com and firebasestorage.googleapis.com there, under their real names. Use with render: false.
   */
  firebase?: FirebaseStandInOptions;
  /** Serve over HTTPS with a certificate from a throwaway CA the scan trusts (for checks of HTTPS sites: Secure cookies, mixed content, HSTS). */
  tls?: boolean;
  /** Render in Chromium (slower: only for weaknesses seen at run time, e.g. a token put in localStorage). */
  render?: boolean;
  /** Path (with optional ?query, matched exactly first, then without the query) to its answer; '*' answers any other path (an SPA fallback), else 404. */
  routes: (ctx: CorpusContext) => Record<string, CorpusResponse | CorpusHandler>;
}

/** For reports: the family a check belongs to, from the registry. */
export type FamilyOf = (checkId: string) => CheckFamily | undefined;

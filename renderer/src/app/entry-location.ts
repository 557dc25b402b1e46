/**
 * The address the app was opened at. Captured before the supabase-js client exists, because supabase-js reads
 * a recovery or sign-in link's fragment and then strips it: the reset page still needs to know it was opened
 * from a recovery link.
 */
export interface EntryLocation {
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}

export function captureEntryLocation(): EntryLocation {
  return { pathname: window.location.pathname, search: window.location.search, hash: window.location.hash };
}

/** The key=value pairs of a URL fragment ('#a=1&b=2'). */
export function fragmentParams(hash: string): URLSearchParams {
  return new URLSearchParams(hash.replace(/^#/, ''));
}

/**
 * The web live browser's own history of the addresses entered: an iframe of another site cannot be asked for
 * its history, so Back and Forward move through what the user typed, as a browser's tab history would.
 */
export interface AddressHistory {
  readonly entries: readonly string[];
  /** The shown entry; -1 before the first address. */
  readonly index: number;
}

/** Most addresses kept: the oldest go first. */
export const MAX_HISTORY = 50;

export const emptyHistory: AddressHistory = { entries: [], index: -1 };

/** A new address: forward entries are dropped; the same address as the current one adds nothing. */
export function visit(history: AddressHistory, url: string): AddressHistory {
  if (history.entries[history.index] === url) return history;
  const entries = [...history.entries.slice(0, history.index + 1), url].slice(-MAX_HISTORY);
  return { entries, index: entries.length - 1 };
}

export const canGoBack = (history: AddressHistory) => history.index > 0;
export const canGoForward = (history: AddressHistory) => history.index < history.entries.length - 1;

export function back(history: AddressHistory): AddressHistory {
  return canGoBack(history) ? { ...history, index: history.index - 1 } : history;
}

export function forward(history: AddressHistory): AddressHistory {
  return canGoForward(history) ? { ...history, index: history.index + 1 } : history;
}

/** The shown address, if any. */
export function current(history: AddressHistory): string | undefined {
  return history.entries[history.index];
}

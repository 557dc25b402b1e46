import type { ScanOptions, ScanProgress, ScanResult } from '../common/scan';

/** Which addresses a scan may connect to. Local scans (CLI, desktop) allow private ones; server mode refuses them unless allow-listed. */
export interface AddressPolicy {
  allowPrivate: boolean;
  /** Hosts or CIDR ranges allowed even when private addresses are refused. */
  allowList?: string[];
}

export interface ScanHooks {
  onProgress?: (progress: ScanProgress) => void;
  signal?: AbortSignal;
  addressPolicy?: AddressPolicy;
  /** Browser executable for rendering; undefined = auto-detect, null = do not render. */
  chromiumPath?: string | null;
}

export type ScanErrorCode = 'invalid-url' | 'unreachable' | 'address-refused' | 'aborted';

/** A scan that could not start or finish; the message is meant for the user. */
export class ScanError extends Error {
  constructor(
    readonly code: ScanErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ScanError';
  }
}

/** Scans a site: retrieval, checks, score, result. */
export async function scan(url: string, options: Partial<ScanOptions> = {}, hooks: ScanHooks = {}): Promise<ScanResult> {
  void url;
  void options;
  void hooks;
  throw new ScanError('unreachable', 'not implemented yet');
}

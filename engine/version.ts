/** Version of the scanner's checks and result format; bump when checks change what they report. */
export const ENGINE_VERSION = '1.0.0';

/** The User-Agent every scan request carries, so site owners can recognise and allow-list the scanner. */
export const USER_AGENT = `Mozilla/5.0 (compatible; vibeeval-scanner/${ENGINE_VERSION}; +https://vibe-eval.com/scanner)`;

/**
 * Whether a request's User-Agent is the scanner's own (its HTTP requests, and every browser it drives: scans'
 * rendering, audits, scenario runs). Such a request is vibeeval looking at a site, not a visitor of it.
 */
export function isScannerAgent(userAgent: string | undefined): boolean {
  return userAgent?.includes('vibeeval-scanner/') === true;
}

/** Version of the scanner's checks and result format; bump when checks change what they report. */
export const ENGINE_VERSION = '1.0.0';

/** The User-Agent every scan request carries, so site owners can recognise and allow-list the scanner. */
export const USER_AGENT = `Mozilla/5.0 (compatible; vibeeval-scanner/${ENGINE_VERSION}; +https://vibe-eval.com/scanner)`;

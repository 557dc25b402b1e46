// A connection that failed, in words a site owner understands. The code stays in brackets: it is what a search or a
// hosting provider's support asks for. OpenSSL's own text ('…:SSL routines:ssl3_get_record:wrong version number')
// means nothing to most readers, so it is never the sentence.

type ConnectionError = Pick<NodeJS.ErrnoException, 'code' | 'message'>;

/** The failures every scan meets, in the words the reports, the CLI and the dashboard have always used. */
const PLAIN: Record<string, string> = {
  ECONNREFUSED: 'refused the connection',
  ECONNRESET: 'closed the connection',
  ETIMEDOUT: 'did not answer in time',
  ERR_TIMEOUT: 'did not answer in time',
};

/** Sentences for the other common network and TLS failures, after the host, with the code in brackets. */
const SENTENCES: Record<string, string> = {
  EHOSTUNREACH: 'could not be reached over the network',
  ENETUNREACH: 'could not be reached over the network',
  EPROTO: 'did not set up a secure (HTTPS) connection: the server may speak plain HTTP on this port, or no TLS version both sides accept',
  ERR_SSL_WRONG_VERSION_NUMBER: 'did not set up a secure (HTTPS) connection: the server speaks plain HTTP on this port',
  CERT_HAS_EXPIRED: 'has an expired certificate: browsers warn visitors away until it is renewed',
  CERT_NOT_YET_VALID: "has a certificate that is not valid yet (check the server's clock)",
  DEPTH_ZERO_SELF_SIGNED_CERT: 'has a self-signed certificate, which browsers do not trust',
  SELF_SIGNED_CERT_IN_CHAIN: 'has a certificate chain ending in a self-signed certificate, which browsers do not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'sends an incomplete certificate chain (the intermediate certificate is missing)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'has a certificate from an authority browsers do not know, or sends an incomplete chain',
  ERR_TLS_CERT_ALTNAME_INVALID: 'has a certificate for another name than this address',
  CERT_REVOKED: 'has a revoked certificate',
};

/** OpenSSL's alerts and handshake failures all come down to one thing for a site owner. */
const TLS_HANDSHAKE = 'could not agree on a secure (HTTPS) connection with the scanner';

/** A connection failure worded for users, its code in brackets (an address refused by policy keeps its own words). */
export function describeConnectionError(error: ConnectionError, host: string): string {
  const code = error.code ?? '';
  if (code === 'EADDRPOLICY') return error.message;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `${host} could not be resolved (DNS: ${code})`;
  if (PLAIN[code]) return `${host} ${PLAIN[code]}`;
  const sentence = SENTENCES[code] ?? (code.startsWith('ERR_SSL_') || /SSL routines|ssl3_|tlsv1 alert/i.test(error.message) ? TLS_HANDSHAKE : undefined);
  if (sentence) return `${host} ${sentence} (${code || 'TLS'})`;
  return `${host}: ${error.message}`;
}

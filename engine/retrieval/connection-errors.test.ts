import { describe, expect, it } from 'vitest';
import { describeConnectionError } from './connection-errors';

const openSsl = 'write EPROTO 40E8C1F5D77F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:354:\n';

describe('describeConnectionError', () => {
  it('says what failed in words, never in OpenSSL text, and keeps the code in brackets', () => {
    const said = describeConnectionError({ code: 'EPROTO', message: openSsl }, 'shop.example');
    expect(said).toBe('shop.example did not set up a secure (HTTPS) connection: the server may speak plain HTTP on this port, or no TLS version both sides accept (EPROTO)');
    expect(said).not.toMatch(/SSL routines|ssl3_|0A00010B/);
    expect(describeConnectionError({ code: 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', message: openSsl }, 'a.example')).toBe(
      'a.example could not agree on a secure (HTTPS) connection with the scanner (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)',
    );
    expect(describeConnectionError({ message: 'error:0A000410:SSL routines::sslv3 alert handshake failure' }, 'a.example')).toBe(
      'a.example could not agree on a secure (HTTPS) connection with the scanner (TLS)',
    );
  });

  it.each([
    ['ENOTFOUND', 'a.example could not be resolved (DNS: ENOTFOUND)'],
    ['ECONNREFUSED', 'a.example refused the connection'],
    ['ECONNRESET', 'a.example closed the connection'],
    ['ETIMEDOUT', 'a.example did not answer in time'],
    ['EHOSTUNREACH', 'a.example could not be reached over the network (EHOSTUNREACH)'],
    ['CERT_HAS_EXPIRED', 'a.example has an expired certificate: browsers warn visitors away until it is renewed (CERT_HAS_EXPIRED)'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'a.example has a self-signed certificate, which browsers do not trust (DEPTH_ZERO_SELF_SIGNED_CERT)'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'a.example sends an incomplete certificate chain (the intermediate certificate is missing) (UNABLE_TO_VERIFY_LEAF_SIGNATURE)'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'a.example has a certificate for another name than this address (ERR_TLS_CERT_ALTNAME_INVALID)'],
  ])('%s reads as a sentence', (code, expected) => {
    expect(describeConnectionError({ code, message: `raw ${code} text` }, 'a.example')).toBe(expected);
  });

  it('keeps a policy refusal as written and an unknown failure with its own message', () => {
    expect(describeConnectionError({ code: 'EADDRPOLICY', message: '10.0.0.1 is a private address' }, 'a.example')).toBe('10.0.0.1 is a private address');
    expect(describeConnectionError({ code: 'EWEIRD', message: 'something odd' }, 'a.example')).toBe('a.example: something odd');
  });
});

// The HTTP→HTTPS redirection probe, shared by the https-redirect check and the Observatory score.
import { header } from '../http/headers';
import type { Exchange, ProbeRequest, SiteBeforeProbes } from '../types';

/** Probe key of the plain-HTTP request for the target (declared by the https-redirect check). */
export const HTTPS_REDIRECT_PROBE_KEY = 'https-redirect:http';

/** The target's URL with the scheme set to http (host and path as the user gave them). */
export function httpUrlOf(target: string): string | undefined {
  try {
    const url = new URL(target);
    url.protocol = 'http:';
    url.port = url.port === '443' ? '' : url.port;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/**
 * The probe: GET http://<host><path>, redirects followed so every hop is recorded (the Observatory's
 * redirection test judges the first hop and the final destination, so the whole chain is needed).
 */
export function httpRedirectProbe(site: Pick<SiteBeforeProbes, 'target'>): ProbeRequest[] {
  const url = httpUrlOf(site.target);
  return url ? [{ key: HTTPS_REDIRECT_PROBE_KEY, method: 'GET', url }] : [];
}

export interface RedirectHop {
  url: string;
  status: number;
}

/**
 * The route the http request took: the URL asked for, each redirect target, and the final URL. Works both
 * for an exchange that followed redirects and for one that did not (then the Location header is the last hop).
 */
export function redirectRoute(exchange: Exchange): RedirectHop[] {
  const route: RedirectHop[] = exchange.redirects.map((hop) => ({ url: hop.url, status: hop.status }));
  if (!route.length || route[route.length - 1]!.url !== exchange.finalUrl) route.push({ url: exchange.finalUrl, status: exchange.status });
  const location = header(exchange.headers, 'location');
  if (exchange.status >= 300 && exchange.status < 400 && location) {
    try {
      route.push({ url: new URL(location, exchange.finalUrl).href, status: 0 });
    } catch {
      // An unparseable Location leads nowhere.
    }
  }
  return route;
}

/** Node's certificate verification error codes (the Observatory treats these as an invalid chain). */
const CERT_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY|DECRYPT)|HOSTNAME_MISMATCH|INVALID_CA|ALTNAME|CHAIN_TOO_LONG|PATH_LENGTH_EXCEEDED|INVALID_PURPOSE/;

/** True when the exchange failed on, or landed behind, a certificate that does not verify. */
export function certificateInvalid(exchange: Exchange): boolean {
  if (exchange.error && CERT_ERROR.test(exchange.error)) return true;
  return !!exchange.tls && (!exchange.tls.authorized || !!exchange.tls.authorizationError);
}

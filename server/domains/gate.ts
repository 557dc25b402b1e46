import { DOMAIN_TEXTS, hostCoveredBy } from '../../common/domains';
import type { AddressPolicy } from '../../engine/retrieval/address-policy';

// Active mode sends the few probes that act on a site (a reflected marker, an open-redirect try, one throwaway
// sign-up). On a shared server, where private addresses are refused because many people use it, it runs only on a
// domain the workspace proved it controls. The desktop app's embedded server (private addresses allowed: one person
// on her own machine) needs no proof: she confirms she has permission to test the site instead.

/** A server that refuses private addresses is shared by a team (server/config.ts); the desktop's own server allows them. */
export const isSharedServer = (policy: AddressPolicy) => !policy.allowPrivate;

/** Why a scan of this URL may not run active here (null: it may), in words for the scan's warnings and the API. */
export async function activeModeRefusal(policy: AddressPolicy, url: string, verifiedDomains: () => Promise<string[]>): Promise<string | null> {
  if (!isSharedServer(policy)) return null;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return DOMAIN_TEXTS.activeNeedsVerifiedDomain(url);
  }
  const domains = await verifiedDomains();
  return domains.some((domain) => hostCoveredBy(host, domain)) ? null : DOMAIN_TEXTS.activeNeedsVerifiedDomain(host);
}

/** The scan's warning when it was asked to run active and the gate refused: it ran passive, and why. */
export const passiveBecause = (refusal: string) => `Active mode was not used, the scan ran passive: ${refusal}`;

import { BROWSER_URL_MESSAGES, isOwnServer, type FramingCheck } from '../../common/live-browser';
import { framingVerdict } from '../../engine/analysis/framing';
import { urlRefusal, type AddressPolicy } from '../../engine/retrieval/address-policy';
import { Fetcher } from '../../engine/retrieval/fetcher';
import { HttpError } from '../http-errors';

/** Redirects followed at most, as a browser frame would follow them, before the check gives up. */
export const MAX_FRAMING_REDIRECTS = 5;
/** A site that does not answer within this is reported as unreachable. */
const TIMEOUT_MS = 10_000;
/** Only the headers matter: the body is read no further than this. */
const MAX_BODY_BYTES = 64 * 1024;

export interface FramingCheckDeps {
  policy: AddressPolicy;
  /** The origin of the page that holds the frame: the server's own (it serves /vibe-loop). */
  embedderOrigin: string;
  /** Test hook: a shorter timeout. */
  timeoutMs?: number;
}

/**
 * Fetches `url` the way a frame would (GET, redirects followed, at most MAX_FRAMING_REDIRECTS), each hop judged
 * by the address policy before it is fetched and again at connect time, and says whether the final answer lets
 * the server's page show it in a frame. Throws HttpError: 400 for a refused address, 422 when the site
 * cannot be reached.
 */
export async function checkFraming(url: string, deps: FramingCheckDeps): Promise<FramingCheck> {
  const fetcher = new Fetcher({ policy: deps.policy, timeoutMs: deps.timeoutMs ?? TIMEOUT_MS, maxBodyBytes: MAX_BODY_BYTES, maxRetries: 0, concurrency: 1 });
  const resolved = new Map<string, string | null>();
  const embedder = `${deps.embedderOrigin}/vibe-loop`;
  try {
    let current = url;
    for (let hop = 0; hop <= MAX_FRAMING_REDIRECTS; hop++) {
      const target = new URL(current);
      if (isOwnServer(target, deps.embedderOrigin)) return { allowed: false, reason: BROWSER_URL_MESSAGES.ownServer, finalUrl: current };
      const refusal = await urlRefusal(deps.policy, current, resolved);
      if (refusal) throw new HttpError(400, refusal);
      const exchange = await fetcher.fetch({ url: current, noRedirect: true });
      if (exchange.error) throw new HttpError(422, `The site cannot be reached: ${exchange.error}.`);
      const location = exchange.headers.find(([name]) => name === 'location')?.[1];
      const next = location !== undefined && exchange.status >= 300 && exchange.status < 400 ? resolveLocation(location, current) : null;
      if (next && (next.protocol === 'http:' || next.protocol === 'https:')) {
        current = next.href;
        continue;
      }
      if (next) throw new HttpError(422, `${target.host} redirects to an address that cannot be shown (${next.protocol}).`);
      return verdictFor(exchange.headers, current, embedder);
    }
    throw new HttpError(422, `${new URL(url).host} redirects more than ${MAX_FRAMING_REDIRECTS} times.`);
  } finally {
    fetcher.close();
  }
}

/** A Location header against the URL that sent it; null when it is not a URL (then the answer is the page). */
function resolveLocation(location: string, base: string): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

function verdictFor(headers: ReadonlyArray<readonly [string, string]>, finalUrl: string, embedder: string): FramingCheck {
  const page = new URL(finalUrl);
  // A page on https may not frame a page on plain http (mixed content), whatever the site's headers say.
  if (new URL(embedder).protocol === 'https:' && page.protocol === 'http:') {
    return { allowed: false, reason: `${page.host} is served over plain http, which a page on https cannot show inside it.`, finalUrl };
  }
  const { allowed, reason } = framingVerdict(headers, finalUrl, embedder);
  return reason ? { allowed, reason, finalUrl } : { allowed, finalUrl };
}

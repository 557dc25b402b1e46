import type { Severity } from '../../common/scan';
import { maskAll, secretId } from '../secrets/mask';
import { collectTexts, type TextSource } from '../secrets/scan';
import { findWebhookUrls, judgeWebhook, maskWebhookUrl, type WebhookHit } from '../secrets/webhooks';
import { defineCheck, type FindingDraft } from '../types';

/** One webhook URL across the site: where it was seen and the worst verdict of any place. */
interface FoundWebhook {
  hit: WebhookHit;
  severity: Severity;
  reason: string;
  snippet: string;
  locations: Array<{ url: string; where: string }>;
}

const MAX_LOCATIONS = 8;

/** `text[from, to)` with every webhook URL in it shown masked (whole, even when it crosses the window's edge). */
function maskedSlice(text: string, hits: readonly WebhookHit[], from: number, to: number): string {
  let out = '';
  let at = from;
  for (const hit of hits) {
    if (hit.end <= at || hit.start >= to) continue;
    out += text.slice(at, Math.max(at, hit.start)) + maskWebhookUrl(hit);
    at = hit.end;
  }
  return (out + text.slice(at, Math.max(at, to))).replace(/\s+/g, ' ');
}

/** ~60 characters either side of the URL, and the payload that decided the severity when it is elsewhere. */
function snippetOf(text: string, hits: readonly WebhookHit[], hit: WebhookHit, payloadAt?: number): string {
  const from = Math.max(0, hit.start - 60);
  const to = Math.min(text.length, hit.end + 60);
  let snippet = `${from > 0 ? '…' : ''}${maskedSlice(text, hits, from, to)}${to < text.length ? '…' : ''}`;
  if (payloadAt !== undefined && (payloadAt < from || payloadAt >= to)) snippet += ` … ${maskedSlice(text, hits, payloadAt, Math.min(text.length, payloadAt + 160))}…`;
  return snippet;
}

/** Every webhook URL in every text the scan retrieved, once per URL, in order of first appearance. */
function findWebhooks(texts: readonly TextSource[]): FoundWebhook[] {
  const byUrl = new Map<string, FoundWebhook>();
  for (const source of texts) {
    const hits = findWebhookUrls(source.text);
    for (const hit of hits) {
      const verdict = judgeWebhook(hit, source.text);
      const snippet = () => snippetOf(source.text, hits, hit, verdict.payloadAt);
      // A request the page made to the hook itself carries the token in its URL: locations are masked too.
      const location = { url: maskAll(source.url.split(hit.url).join(maskWebhookUrl(hit)), [hit.token]), where: source.where };
      const known = byUrl.get(hit.url);
      if (!known) {
        byUrl.set(hit.url, { hit, severity: verdict.severity, reason: verdict.reason, snippet: snippet(), locations: [location] });
        continue;
      }
      if (!known.locations.some((l) => l.url === location.url && l.where === location.where)) known.locations.push(location);
      // The place that shows what the workflow does decides: a bare mention in the HTML must not hide the call.
      if (verdict.severity === 'high' && known.severity !== 'high') Object.assign(known, { severity: 'high', reason: verdict.reason, snippet: snippet() });
    }
  }
  return [...byUrl.values()];
}

function describe(found: FoundWebhook): string {
  const lines = found.locations.slice(0, MAX_LOCATIONS).map((l) => `${l.where}: ${l.url}`);
  if (found.locations.length > MAX_LOCATIONS) lines.push(`… and ${found.locations.length - MAX_LOCATIONS} more places`);
  return lines.join('\n');
}

export const automationWebhookInClient = defineCheck({
  id: 'automation-webhook-in-client',
  family: 'secrets',
  title: 'Automation or chat webhook URL in client code',
  severity: 'medium',
  confidence: 'high',
  cwe: 798,
  owasp: 'A07',
  description:
    'Looks for webhook URLs whose address is their only credential (Make, Zapier, n8n, Pipedream, IFTTT, Power Automate, Slack, Discord, Microsoft Teams and Google Chat) in HTML, scripts, source maps and the requests the page makes. Anyone who reads the page can call them: trigger the workflow with any data (fake orders, mail in your name, spam records) or post into your channels. Found passively: the scan never calls a webhook, since a call would run the workflow.',
  remediation:
    'Move the call behind a server function that checks the caller (a Supabase edge function, an /api route) and keeps the webhook URL in a server-side environment variable, with a rate limit and input validation there. Then rotate the URL at the provider (create a new webhook and delete the old one): removing it from the code does not un-leak it, and old bundles stay cached.',
  references: [
    'https://cwe.mitre.org/data/definitions/798.html',
    'https://www.w3.org/2001/tag/doc/capability-urls/',
    'https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks/',
    'https://help.zapier.com/hc/en-us/articles/8496288690317-Trigger-Zaps-from-webhooks',
    'https://docs.n8n.io/integrations/builtin/core-nodes/n8n-nodes-base.webhook/',
  ],
  run(site) {
    const findings: FindingDraft[] = [];
    for (const found of findWebhooks(collectTexts(site))) {
      const { hit } = found;
      const first = found.locations[0]!;
      const places = found.locations.length === 1 ? 'one place' : `${found.locations.length} places`;
      findings.push({
        url: first.url,
        title: `${hit.provider} webhook URL in client code`,
        severity: found.severity,
        confidence: hit.confidence,
        detail: `${maskWebhookUrl(hit)} lets anyone ${hit.power}; seen in ${places}. ${found.reason}`,
        evidence: { request: `GET ${first.url}`, response: describe(found), match: found.snippet },
        key: `${hit.patternId}:${secretId(hit.url)}`,
      });
    }
    return findings;
  },
});

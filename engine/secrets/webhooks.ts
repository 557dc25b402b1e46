// Capability URLs: automation and chat webhooks whose address is the only credential. Whoever reads the URL can
// trigger the owner's workflow (Make, Zapier, n8n, Pipedream, IFTTT, Power Automate) or post as the owner (Slack,
// Discord, Microsoft Teams, Google Chat). Shapes follow each provider's documentation and the public gitleaks and
// TruffleHog rules (reference only; these expressions are our own). Every expression starts with a literal scheme
// and host and uses bounded repetitions of single character classes, so it stays linear on a 2 MB bundle.
import type { Severity } from '../../common/scan';
import { maskSecret } from './mask';

/** A provider's webhook shape: `token` is the part that grants access, `name` (when present) the workflow's name. */
export interface WebhookPattern {
  id: string;
  provider: string;
  /** What the URL lets anyone do, one clause: "trigger your Make scenario". */
  power: string;
  /** Cheap prefilter: the regex runs only when one of these occurs in the lower-cased text. */
  keywords: readonly string[];
  /** Global; named groups `token` (required) and `name` (optional). */
  regex: RegExp;
  /** Shapes recognised by context rather than by a provider's own host are likelier to misfire. */
  confidence?: 'medium';
  /** False for shapes whose secret is a chosen path (n8n): a name like `contact` is as callable as a random id. */
  randomToken?: false;
  /** Extra verdict on a match from its host and the text around it; false drops the match. */
  accept?: (url: string, host: string, around: string) => boolean;
}

const UUID = '[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}';
const UUID_ONLY = /^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/i;
/** n8n named anywhere near a self-hosted /webhook/ URL (its SDK, its docs, an env name like VITE_N8N_WEBHOOK). */
const N8N_CONTEXT = /n8n/i;
const LOCAL_HOST = /^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|0\.0\.0\.0|\[::1\]|[\w-]{1,63}\.local)$/i;

/** Every provider shape, most specific first: a URL claimed by one is not matched again by a later one. */
export const WEBHOOK_PATTERNS: readonly WebhookPattern[] = [
  {
    id: 'make',
    provider: 'Make',
    power: 'trigger your Make scenario with any data',
    keywords: ['make.com', 'integromat.com'],
    regex: /https:\/\/hook\.(?:(?:eu|us)\d{1,2}\.)?(?:make\.com|integromat\.com)\/(?<token>[a-z0-9]{20,40})(?![\w-])/g,
  },
  {
    id: 'zapier',
    provider: 'Zapier',
    power: 'trigger your Zap with any data',
    keywords: ['hooks.zapier.com'],
    regex: /https:\/\/hooks\.zapier\.com\/hooks\/catch\/(?<token>\d{3,12}\/[a-z0-9]{4,12})(?![\w-])/g,
  },
  {
    id: 'n8n-cloud',
    provider: 'n8n',
    power: 'run your n8n workflow with any data',
    keywords: ['.app.n8n.cloud'],
    randomToken: false,
    regex: /https:\/\/[a-z0-9-]{1,63}\.app\.n8n\.cloud\/webhook(?:-test)?\/(?<token>(?<name>[\w-]{1,100})(?:\/[\w-]{1,60}){0,3})/g,
  },
  {
    // Self-hosted n8n: any host, recognised by the /webhook/ path with n8n in the host or nearby, or by n8n's default
    // generated path (a UUID) with n8n named nearby. Without either, /webhook/<id> is as likely the app's own route.
    id: 'n8n-self-hosted',
    provider: 'n8n',
    power: 'run your n8n workflow with any data',
    keywords: ['/webhook/', '/webhook-test/'],
    randomToken: false,
    confidence: 'medium',
    regex: /https?:\/\/(?<host>[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,6})(?::\d{2,5})?\/webhook(?:-test)?\/(?<token>(?<name>[\w-]{1,100})(?:\/[\w-]{1,60}){0,3})/gi,
    accept: (_url, host, around) => !LOCAL_HOST.test(host) && (/(?:^|[.-])n8n(?:[.-]|$)/i.test(host) || N8N_CONTEXT.test(around)),
  },
  {
    id: 'pipedream',
    provider: 'Pipedream',
    power: 'run your Pipedream workflow with any data',
    keywords: ['.m.pipedream.net'],
    regex: /https:\/\/(?<token>[a-z0-9]{12,40})\.m\.pipedream\.net(?![\w-])/g,
  },
  {
    id: 'ifttt',
    provider: 'IFTTT',
    power: 'fire your IFTTT applets (and every other event of the account: the key is account-wide)',
    keywords: ['maker.ifttt.com'],
    regex: /https:\/\/maker\.ifttt\.com\/trigger\/(?<name>[\w-]{1,60})\/(?:json\/)?with\/key\/(?<token>[\w-]{16,64})/g,
  },
  {
    id: 'slack-incoming',
    provider: 'Slack',
    power: 'post messages (phishing links included) into your Slack channel',
    keywords: ['hooks.slack.com'],
    regex: /https:\/\/hooks\.slack\.com\/services\/(?<token>T[A-Z0-9]{6,12}\/B[A-Z0-9]{6,12}\/[A-Za-z0-9]{20,40})(?![\w-])/g,
  },
  {
    id: 'slack-workflow',
    provider: 'Slack',
    power: 'start your Slack workflow with any data',
    keywords: ['hooks.slack.com'],
    regex: /https:\/\/hooks\.slack\.com\/(?:workflows|triggers)\/(?<token>T[A-Z0-9]{6,12}\/[A-Za-z0-9]{6,40}(?:\/[A-Za-z0-9]{6,40}){1,2})(?![\w-])/g,
  },
  {
    id: 'discord',
    provider: 'Discord',
    power: 'post into (or delete) the webhook of your Discord channel',
    keywords: ['/webhooks/'],
    regex: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/(?:v\d{1,2}\/)?webhooks\/(?<token>\d{17,20}\/[\w-]{60,80})(?![\w-])/g,
  },
  {
    id: 'teams',
    provider: 'Microsoft Teams',
    power: 'post messages into your Teams channel',
    keywords: ['webhook.office.com', 'outlook.office.com', 'outlook.office365.com'],
    regex: new RegExp(
      String.raw`https://(?:[a-z0-9-]{1,63}\.webhook\.office\.com/webhookb2|outlook\.office(?:365)?\.com/webhook)/(?<token>${UUID}@${UUID}/IncomingWebhook/[a-fA-F0-9]{32}/${UUID}(?:/[\w-]{10,80})?)`,
      'g',
    ),
  },
  {
    // Power Automate "When an HTTP request is received" and Teams Workflows: the sig query parameter is the key.
    id: 'power-automate',
    provider: 'Power Automate',
    power: 'run your Power Automate flow with any data',
    keywords: ['.logic.azure.com', '.powerplatform.com'],
    regex:
      /https:\/\/(?:prod-\d{1,3}\.[a-z0-9]{2,30}\.logic\.azure\.com|[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,3}\.environment\.api\.powerplatform\.com)(?::443)?\/(?:powerautomate\/automations\/direct\/)?workflows\/[a-fA-F0-9]{32}\/triggers\/[\w-]{1,60}\/paths\/invoke\?[\w.%=&-]{0,300}?\bsig=(?<token>[\w%-]{20,100})/g,
  },
  {
    id: 'google-chat',
    provider: 'Google Chat',
    power: 'post messages into your Google Chat space',
    keywords: ['chat.googleapis.com'],
    regex: /https:\/\/chat\.googleapis\.com\/v1\/spaces\/[\w-]{6,40}\/messages\?key=[\w-]{20,60}&(?:amp;)?token=(?<token>[\w%-]{20,100})/g,
  },
];

/** Documentation and template values: `YOUR_WEBHOOK_ID`, `xxxxxx`, `<id>`, `{token}`, `example`, `123456/abcdef`. */
export const WEBHOOK_PLACEHOLDER =
  /your|x{4}|12345|23456|34567|45678|56789|abcde|bcdef|example|placeholder|dummy|sample|redacted|change[_-]?me|replace[_-]?(?:me|this|with)|insert[_-]?(?:here|token|key|id)|webhook[_-]?(?:id|url|token|key)|\.{3}|[<>{}]/i;

/** A token made of a handful of characters (`aaaaaaaaaaaa`, `1234567890`) is a placeholder, not a key. */
function looksRandom(token: string): boolean {
  return new Set(token.replace(/[^A-Za-z0-9]/g, '')).size >= 6;
}

/** One webhook URL in one text. */
export interface WebhookHit {
  patternId: string;
  provider: string;
  power: string;
  url: string;
  token: string;
  confidence: 'high' | 'medium';
  /** The workflow's own name when the URL carries one (an n8n path, an IFTTT event). */
  name?: string;
  start: number;
  end: number;
  /** Where later copies of the same URL in the text end (a minifier inlines a constant at each call), up to six. */
  alsoEndsAt: number[];
}

const KEYWORDS = [...new Set(WEBHOOK_PATTERNS.flatMap((p) => p.keywords))];
/** How many uses of one URL (copies of it, uses of its constant) are read for a payload. */
const MAX_USES = 6;
/** More distinct hooks than this in one text is a generated or hostile file; the first ones make the point. */
const MAX_HITS = 100;

/** Every webhook URL in `text`, each URL once (the first, most specific pattern wins). */
export function findWebhookUrls(text: string): WebhookHit[] {
  const lower = text.toLowerCase();
  const present = new Set(KEYWORDS.filter((keyword) => lower.includes(keyword)));
  if (present.size === 0) return [];
  const hits: WebhookHit[] = [];
  const claimed = new Set<string>();
  // Two shapes can match at one place (an n8n cloud URL is also a /webhook/ URL): the first claims the start.
  const starts = new Set<number>();
  for (const pattern of WEBHOOK_PATTERNS) {
    if (!pattern.keywords.some((keyword) => present.has(keyword))) continue;
    pattern.regex.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = pattern.regex.exec(text)) && hits.length < MAX_HITS) {
      const url = m[0];
      const token = m.groups?.token ?? '';
      if (claimed.has(url)) {
        const first = hits.find((hit) => hit.url === url);
        if (first && first.alsoEndsAt.length < MAX_USES) first.alsoEndsAt.push(m.index + url.length);
        continue;
      }
      if (starts.has(m.index)) continue;
      const host = m.groups?.host ?? '';
      if (WEBHOOK_PLACEHOLDER.test(`${host} ${token}`) || (pattern.randomToken !== false && !looksRandom(token))) continue;
      if (pattern.accept && !pattern.accept(url, host, text.slice(Math.max(0, m.index - 400), m.index + url.length + 400))) continue;
      // A UUID is a generated id, not a workflow name.
      const name = m.groups?.name && !UUID_ONLY.test(m.groups.name) ? m.groups.name : undefined;
      claimed.add(url);
      starts.add(m.index);
      hits.push({
        patternId: pattern.id,
        provider: pattern.provider,
        power: pattern.power,
        confidence: pattern.confidence ?? 'high',
        url,
        token,
        name,
        start: m.index,
        end: m.index + url.length,
        alsoEndsAt: [],
      });
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}

/**
 * Whether a request URL calls a webhook: for a browser that renders a page on the scan's behalf, where a request to
 * it would run the owner's workflow (a hook the page pings on load). Self-hosted n8n counts when its host names n8n.
 */
export function isWebhookUrl(url: string): boolean {
  return findWebhookUrls(url.slice(0, 2_000)).some((hit) => hit.start === 0);
}

/** The URL with its token masked: enough to recognise the hook, never enough to call it. */
export function maskWebhookUrl(hit: Pick<WebhookHit, 'url' | 'token'>): string {
  return hit.token ? hit.url.split(hit.token).join(maskSecret(hit.token)) : hit.url;
}

/** What a workflow does, judged from its name or the payload sent to it. */
export type WebhookAction = 'mail' | 'charge' | 'write';

const ACTION_WORDS: Record<WebhookAction, ReadonlySet<string>> = {
  mail: new Set(['mail', 'mails', 'mailer', 'subject', 'recipient', 'recipients', 'bcc', 'smtp', 'newsletter', 'sendgrid', 'resend', 'mailchimp']),
  charge: new Set([
    'payment',
    'payments',
    'pay',
    'charge',
    'charges',
    'checkout',
    'invoice',
    'invoices',
    'order',
    'orders',
    'amount',
    'price',
    'total',
    'refund',
    'billing',
    'purchase',
    'stripe',
    'paypal',
    'card',
  ]),
  write: new Set([
    'create',
    'insert',
    'upsert',
    'update',
    'delete',
    'save',
    'record',
    'records',
    'row',
    'rows',
    'sheet',
    'sheets',
    'airtable',
    'crm',
    'lead',
    'leads',
    'booking',
    'bookings',
    'appointment',
    'signup',
    'register',
    'registration',
    'database',
    'hubspot',
    'notion',
  ]),
};
const ACTION_TEXT: Record<WebhookAction, string> = { mail: 'sends mail', charge: 'handles orders or payments', write: 'writes records' };

/** Words of identifiers and strings: `sendEmail` -> send, email; `order_total` -> order, total. */
function wordsOf(text: string): string[] {
  return (text.match(/[A-Z]{2,20}(?![a-z])|[A-Z]?[a-z]{2,20}/g) ?? []).map((word) => word.toLowerCase());
}

/** The first action the words name, mail before charge before write (the order of harm to others). */
export function actionOf(text: string): WebhookAction | undefined {
  const words = wordsOf(text);
  // "email" alone is a contact field; sending mail shows as send + (e)mail, or a subject or recipient.
  if (words.includes('send') && (words.includes('email') || words.includes('mail'))) return 'mail';
  return (Object.keys(ACTION_WORDS) as WebhookAction[]).find((action) => words.some((word) => ACTION_WORDS[action].has(word)));
}

/** Where a call hands over its payload: `JSON.stringify(`, `body:`, `data:` or the object after `post(url,`. */
const PAYLOAD_START = /JSON\.stringify\(|\b(?:body|data|json)\s{0,3}:|^\s{0,5}[\x22\x27\x60]?\s{0,3},\s{0,5}\{/;
/** How far after a call its payload may start, and how long it may be: one call, not the next component. */
const CALL_WINDOW = 240;
const PAYLOAD_WINDOW = 300;

/** The payload after a use of the URL (at `from`) and where it starts, or undefined when none follows closely. */
function payloadAfter(text: string, from: number): { text: string; at: number } | undefined {
  const window = text.slice(from, from + CALL_WINDOW);
  const start = PAYLOAD_START.exec(window);
  if (!start) return undefined;
  const at = from + start.index;
  const payload = text.slice(at, at + PAYLOAD_WINDOW);
  const close = payload.indexOf(')', start[0].length);
  return { text: close === -1 ? payload : payload.slice(0, close), at };
}

/** The identifier a URL literal is assigned to (`const HOOK = "…"`, `HOOK:"…"`), read backwards from the quote. */
function assignedName(text: string, start: number): string | undefined {
  const before = text.slice(Math.max(0, start - 60), start);
  return /([A-Za-z_$][\w$]{0,40})\s{0,3}[:=]\s{0,3}[\x22\x27\x60]$/.exec(before)?.[1];
}

/** Occurrences of a short minified name inside longer words are skipped; this bounds how many are looked at. */
const MAX_OCCURRENCES = 2_000;

/** Payloads sent where the URL is used: right after the literal, and after up to six uses of its constant. */
function payloads(text: string, hit: WebhookHit): Array<{ text: string; at: number }> {
  const found: Array<{ text: string; at: number }> = [];
  for (const end of [hit.end, ...hit.alsoEndsAt]) {
    const direct = payloadAfter(text, end);
    if (direct) found.push(direct);
  }
  const name = assignedName(text, hit.start);
  if (!name || name.length < 2) return found;
  let uses = 0;
  let seen = 0;
  for (let at = text.indexOf(name, hit.end); at !== -1 && uses < MAX_USES && seen++ < MAX_OCCURRENCES; at = text.indexOf(name, at + name.length)) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + name.length] ?? ' ';
    if (/[\w$.]/.test(before) || /[\w$]/.test(after)) continue;
    uses++;
    const payload = payloadAfter(text, at + name.length);
    if (payload) found.push(payload);
  }
  return found;
}

export interface WebhookVerdict {
  severity: Severity;
  action?: WebhookAction;
  reason: string;
  /** Where the payload that decided starts in the text, for evidence. */
  payloadAt?: number;
}

/** Severity of a webhook and the one sentence that says why. */
export function judgeWebhook(hit: WebhookHit, text: string): WebhookVerdict {
  const byName = hit.name ? actionOf(hit.name.replace(/[-_]/g, ' ')) : undefined;
  if (byName) return { severity: 'high', action: byName, reason: `The workflow's name in its URL shows it ${ACTION_TEXT[byName]}, so anyone can make it do so in your name.` };
  for (const payload of payloads(text, hit)) {
    const action = actionOf(payload.text);
    if (action)
      return {
        severity: 'high',
        action,
        payloadAt: payload.at,
        reason: `The payload the page sends to it shows the workflow ${ACTION_TEXT[action]}, so anyone can make it do so in your name.`,
      };
  }
  return { severity: 'medium', reason: 'Nothing in the page shows what the workflow does, so it is rated medium: anyone can still send it any data.' };
}

import { fitLines, moreText, type ChatMessage } from './message';

// Slack incoming webhooks take {text, blocks}: `text` is the notification's fallback, the blocks are what the channel
// shows (Block Kit, mrkdwn texts). Slack parses &, < and > (links, <!channel>, <@user> mentions), so every text of
// ours is escaped to &amp; &lt; &gt;: a finding title reading '<!channel>' shows as written and pings no one. Limits
// (Block Kit reference): 50 blocks, a section's text 3000 characters, 10 fields of 2000 each; `text` is cut well
// below its 40,000.

export const SLACK_SECTION_MAX = 3000;
export const SLACK_FIELD_MAX = 2000;
export const SLACK_FIELDS_MAX = 10;
export const SLACK_TEXT_MAX = 3000;

const TONE_EMOJI: Record<ChatMessage['tone'], string> = { good: ':large_green_circle:', warning: ':large_orange_circle:', bad: ':red_circle:', neutral: ':large_blue_circle:' };

/** Slack's three control characters as entities, and bare broadcast words broken (in case a client links them). */
export function slackEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(channel|here|everyone)\b/gi, '@\u200b$1');
}

/** Escaped text cut to `max` characters without splitting an entity. */
function fit(escaped: string, max: number): string {
  if (escaped.length <= max) return escaped;
  let end = max - 1;
  const amp = escaped.lastIndexOf('&', end);
  if (amp !== -1 && escaped.indexOf(';', amp) >= end) end = amp;
  return `${escaped.slice(0, end)}…`;
}

type Block = Record<string, unknown>;
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });

/** The link in Slack's <url|label> syntax (the URL's own | and > would end it early). */
const slackLink = (link: NonNullable<ChatMessage['link']>) => `<${slackEscape(link.url).replace(/\|/g, '%7C')}|${slackEscape(link.label)}>`;

function findingsBlock(message: ChatMessage): Block | null {
  if (!message.findings.length) return null;
  const heading = `*${slackEscape(message.findingsLabel)}*`;
  const lines = fitLines(
    message.findings.map((title) => `• ${slackEscape(title)}`),
    message.moreFindings,
    (kept) => [heading, ...kept].join('\n').length <= SLACK_SECTION_MAX,
    (left) => slackEscape(moreText(left, message.link)),
  );
  return { type: 'section', text: mrkdwn([heading, ...lines].join('\n')) };
}

/** The Slack incoming-webhook body of a message. */
export function slackBody(message: ChatMessage): Record<string, unknown> {
  const headline = fit(`${TONE_EMOJI[message.tone]} *${slackEscape(message.headline)}*`, SLACK_SECTION_MAX);
  const blocks: Block[] = [{ type: 'section', text: mrkdwn(headline) }];
  const facts = message.facts.slice(0, SLACK_FIELDS_MAX).map((fact) => mrkdwn(fit(`*${slackEscape(fact.label)}*\n${slackEscape(fact.value)}`, SLACK_FIELD_MAX)));
  if (facts.length) blocks.push({ type: 'section', fields: facts });
  const findings = findingsBlock(message);
  if (findings) blocks.push(findings);
  if (message.note) blocks.push({ type: 'section', text: mrkdwn(fit(slackEscape(message.note), SLACK_SECTION_MAX)) });
  if (message.link) blocks.push({ type: 'context', elements: [mrkdwn(slackLink(message.link))] });
  const fallback = [message.headline, ...message.facts.map((fact) => `${fact.label}: ${fact.value}`)].join(' · ');
  return { text: fit(slackEscape(fallback), SLACK_TEXT_MAX), blocks };
}

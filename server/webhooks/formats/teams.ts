import { cut, fitLines, moreText, type ChatMessage } from './message';

// Microsoft Teams incoming webhooks (the Workflows "post to a channel when a webhook request is received" flow, and
// the older connectors) take a message activity with one Adaptive Card attachment:
// {type: 'message', attachments: [{contentType: 'application/vnd.microsoft.card.adaptive', content: AdaptiveCard}]}.
// Every text is a plain TextBlock or fact: Teams shows HTML as text and mentions only with `msteams.entities`, which
// we never send; a title's markdown link is broken (it cannot make a masked link). Teams refuses
// messages above 28 KB (and some tenants well before): ours are kept under TEAMS_BODY_MAX bytes.

export const TEAMS_BODY_MAX = 20 * 1024;
export const ADAPTIVE_CARD_VERSION = '1.4';

const TONE_COLOR: Record<ChatMessage['tone'], string> = { good: 'Good', warning: 'Warning', bad: 'Attention', neutral: 'Default' };

/**
 * A TextBlock's text made inert where it matters: Teams' markdown subset has no documented escape, so a masked link's
 * "](" is broken with a zero-width space (the title stays readable, its link is text); bold or italics are harmless.
 */
export function teamsEscape(text: string): string {
  return text.replace(/\]\s*\(/g, ']\u200b(');
}

const textBlock = (text: string, extra: Record<string, unknown> = {}) => ({ type: 'TextBlock', text, wrap: true, ...extra });

function card(message: ChatMessage, findingLines: string[]): Record<string, unknown> {
  const body: Record<string, unknown>[] = [textBlock(teamsEscape(message.headline), { weight: 'Bolder', size: 'Medium', color: TONE_COLOR[message.tone] })];
  if (message.facts.length) body.push({ type: 'FactSet', facts: message.facts.map((fact) => ({ title: teamsEscape(fact.label), value: teamsEscape(fact.value) })) });
  if (findingLines.length) {
    body.push(textBlock(teamsEscape(message.findingsLabel), { weight: 'Bolder', spacing: 'Medium' }));
    for (const line of findingLines) body.push(textBlock(line, { spacing: 'Small' }));
  }
  if (message.note) body.push(textBlock(teamsEscape(message.note), { isSubtle: true }));
  const content: Record<string, unknown> = { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: ADAPTIVE_CARD_VERSION, body };
  if (message.link) content.actions = [{ type: 'Action.OpenUrl', title: message.link.label, url: message.link.url }];
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content }] };
}

/** The Teams incoming-webhook body of a message: the card, its findings list shortened until it fits. */
export function teamsBody(message: ChatMessage): Record<string, unknown> {
  const size = (lines: string[]) => Buffer.byteLength(JSON.stringify(card(message, lines)));
  const lines = fitLines(
    message.findings.map((title) => `• ${teamsEscape(title)}`),
    message.findings.length ? message.moreFindings : 0,
    (kept) => size(kept) <= TEAMS_BODY_MAX,
    (left) => teamsEscape(moreText(left, message.link)),
  );
  const built = card(message, lines);
  if (Buffer.byteLength(JSON.stringify(built)) <= TEAMS_BODY_MAX) return built;
  // Facts and notes are cut far below the limit already: this is a message whose every text is at its longest.
  return card({ ...message, headline: cut(message.headline, 200), note: message.note && cut(message.note, 200), findings: [] }, []);
}

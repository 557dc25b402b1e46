import { cut, fitLines, moreText, type ChatMessage } from './message';

// Discord's Execute Webhook takes {content, embeds, allowed_mentions}. `allowed_mentions: {parse: []}` lets no text
// of the message ping anyone (@everyone, @here, <@id>, <@&role>), whoever wrote it; Discord's markdown is escaped
// with backslashes so a finding's title cannot bold, hide or mask a link. Limits (Discord's API reference): content
// 2000 characters; an embed's title 256, description 4096, 25 fields of name 256 and value 1024, footer 2048, and all
// of an embed's texts together 6000.

export const DISCORD_CONTENT_MAX = 2000;
export const DISCORD_TITLE_MAX = 256;
export const DISCORD_DESCRIPTION_MAX = 4096;
export const DISCORD_FIELDS_MAX = 25;
export const DISCORD_FIELD_NAME_MAX = 256;
export const DISCORD_FIELD_VALUE_MAX = 1024;
export const DISCORD_EMBED_TOTAL_MAX = 6000;

const TONE_COLOR: Record<ChatMessage['tone'], number> = { good: 0x2f9e44, warning: 0xf08c00, bad: 0xe03131, neutral: 0x1c7ed6 };
const FOOTER = 'vibeeval';

/** Discord markdown's characters (and mention and link openers) escaped with a backslash: shown as written. */
export function discordEscape(text: string): string {
  return text.replace(/[\\*_~`|>#[\]()<@:-]/g, '\\$&');
}

/** Escaped text cut to `max` without leaving a lone escaping backslash at its end. */
function fit(escaped: string, max: number): string {
  if (escaped.length <= max) return escaped;
  let cutText = escaped.slice(0, max - 1);
  // An odd run of trailing backslashes ends in one that would escape the ellipsis: drop it.
  let trailing = 0;
  while (cutText[cutText.length - 1 - trailing] === '\\') trailing++;
  if (trailing % 2 === 1) cutText = cutText.slice(0, -1);
  return `${cutText}…`;
}

function description(message: ChatMessage, room: number): string {
  const parts: string[] = [];
  if (message.findings.length) {
    const heading = `**${discordEscape(message.findingsLabel)}**`;
    const note = message.note ? `\n\n${fit(discordEscape(message.note), 1000)}` : '';
    const lines = fitLines(
      message.findings.map((title) => `• ${discordEscape(title)}`),
      message.moreFindings,
      (kept) => [heading, ...kept].join('\n').length + note.length <= room,
      (left) => discordEscape(moreText(left, message.link)),
    );
    parts.push([heading, ...lines].join('\n'));
    if (note) parts.push(note.trimStart());
  } else if (message.note) {
    parts.push(fit(discordEscape(message.note), room));
  }
  return parts.join('\n\n');
}

/** The Discord Execute Webhook body of a message. */
export function discordBody(message: ChatMessage, timestamp?: string): Record<string, unknown> {
  const title = fit(discordEscape(message.headline), DISCORD_TITLE_MAX);
  const fields = message.facts.slice(0, DISCORD_FIELDS_MAX).map((fact) => ({
    name: fit(discordEscape(fact.label), DISCORD_FIELD_NAME_MAX),
    value: fit(discordEscape(fact.value), DISCORD_FIELD_VALUE_MAX) || '—',
    inline: true,
  }));
  const used = title.length + FOOTER.length + fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0);
  const text = description(message, Math.min(DISCORD_DESCRIPTION_MAX, DISCORD_EMBED_TOTAL_MAX - used));
  const embed: Record<string, unknown> = { title, color: TONE_COLOR[message.tone], fields, footer: { text: FOOTER } };
  if (text) embed.description = text;
  if (message.link) embed.url = message.link.url;
  if (timestamp) embed.timestamp = timestamp;
  const link = message.link ? `\n${message.link.label}: <${message.link.url}>` : '';
  return {
    content: cut(`${fit(discordEscape(message.headline), DISCORD_CONTENT_MAX - link.length)}${link}`, DISCORD_CONTENT_MAX),
    embeds: [embed],
    allowed_mentions: { parse: [] },
  };
}

/** `text` as a pattern matching itself literally (MDN's escape, the characters that mean something in a RegExp). */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

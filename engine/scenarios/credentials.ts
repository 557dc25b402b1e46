import type { Credentials } from './types';

const USER_KEYS = 'e-?mail|user ?name|user|login';
const PASSWORD_KEYS = 'password|passwd|pass|pwd';
/** `email: x` / `Password = y` lines (the key may follow other words: "Test account email: x"). */
const USER_LINE = new RegExp(`(?:^|[\\s(\\-*•,;])(?:${USER_KEYS})\\s*[:=]\\s*(\\S+)`, 'i');
const PASSWORD_LINE = new RegExp(`(?:^|[\\s(\\-*•,;])(?:${PASSWORD_KEYS})\\s*[:=]\\s*(\\S+)`, 'i');
/** `user@example.com / secret` or `user@example.com:secret` on one line. */
const PAIR = /(?:^|\s)([^\s/:"'`<>()@]+@(?:[^\s/:"'`<>()@.]+\.)+[^\s/:"'`<>()@.]+)\s*(?:\/|:)\s*(\S+)/;

/** Quotes and trailing punctuation that wrap a value in prose ("password: `abc`." → abc). */
function clean(value: string): string {
  return value.replace(/^["'`]+/, '').replace(/(?<!["'`])["'`]+[.,;)]*$/, '').replace(/(?<![.,;)])[.,;)]+$/, '');
}

/** Test credentials from a project's secret instructions ('user@example.com / password', 'email: ...' lines). */
export function parseCredentials(secretInstruction: string | null): Credentials | null {
  if (!secretInstruction?.trim()) return null;
  const lines = secretInstruction.split(/\r?\n/);
  let username: string | null = null;
  let password: string | null = null;
  for (const line of lines) {
    // Both may sit on one line ("email: a@b.c password: x"): values end at the first space.
    const pass = PASSWORD_LINE.exec(line);
    const user = USER_LINE.exec(line);
    if (user && username === null) username = clean(user[1]!);
    if (pass && password === null) password = clean(pass[1]!);
  }
  if (username && password) return { username, password };
  for (const line of lines) {
    const pair = PAIR.exec(line);
    if (pair) {
      const value = clean(pair[2]!);
      if (value) return { username: clean(pair[1]!), password: value };
    }
  }
  return null;
}

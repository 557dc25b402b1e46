import type { HeaderList } from '../types';

/** The first value of a header, or undefined. Names are matched case-insensitively. */
export function header(headers: HeaderList, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of headers) if (key === wanted) return value;
  return undefined;
}

/** Every value of a header, in arrival order (set-cookie, repeated CSP headers). */
export function headerAll(headers: HeaderList, name: string): string[] {
  const wanted = name.toLowerCase();
  return headers.filter(([key]) => key === wanted).map(([, value]) => value);
}

/** Renders headers the way they travel, for evidence. */
export function formatHeaders(headers: HeaderList): string {
  return headers.map(([key, value]) => `${key}: ${value}`).join('\n');
}

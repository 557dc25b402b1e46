// The records in an API answer, whatever it wraps them in: a JSON array, `{ orders: [...] }` / `{ data: [...] }`, a
// GraphQL `{ data: { orders: [...] } }`, or one record. Pure.
import { jsonAnswer } from '../checks/api-unauthenticated-data';
import type { Exchange, Site } from '../types';

type Row = Record<string, unknown>;

const MAX_RECORDS = 50;
const isRecord = (value: unknown): value is Row => value !== null && typeof value === 'object' && !Array.isArray(value);

function collect(value: unknown, out: Row[], depth: number): void {
  if (out.length >= MAX_RECORDS || depth > 3) return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, MAX_RECORDS)) if (isRecord(item)) out.push(item);
    return;
  }
  if (!isRecord(value)) return;
  const lists = Object.entries(value).filter(([, child]) => Array.isArray(child) || (isRecord(child) && depth === 0 && 'data' in value));
  const wrapper = lists.length > 0 && Object.values(value).every((child) => child === null || typeof child !== 'object' || Array.isArray(child) || isRecord(child));
  // `{ id, total, items: [...] }` is one record with a list inside; `{ orders: [...], count }` is a wrapper.
  if ('id' in value || !wrapper) {
    out.push(value);
    return;
  }
  for (const [, child] of lists) collect(child, out, depth + 1);
}

/** The records of a 2xx JSON answer that really is the endpoint (not a login page or the SPA's catch-all). */
export function recordsOf(site: Site, exchange: Exchange | undefined): Row[] {
  const json = jsonAnswer(site, exchange);
  const out: Row[] = [];
  collect(json, out, 0);
  return out.filter((row) => !('error' in row && Object.keys(row).length <= 3) && !('errors' in row));
}

/** The answer's JSON, when it is a usable one. */
export { jsonAnswer };

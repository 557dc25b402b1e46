// The records in an API answer, whatever it wraps them in: a JSON array, `{ orders: [...] }` / `{ data: [...] }`, a
// GraphQL `{ data: { orders: [...] } }`, or one record. Pure.
import { jsonAnswer } from '../checks/api-unauthenticated-data';
import type { Exchange, Site } from '../types';

type Row = Record<string, unknown>;

const MAX_RECORDS = 50;
const isRecord = (value: unknown): value is Row => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Fields of a wrapper rather than a record: `{ orders: [...], count, next }`, `{ success, order: {...} }`. */
const WRAPPER_FIELD = /^(?:count|total|total_?count|page|pages|per_?page|limit|offset|next|prev|previous|cursor|has_?more|success|ok|status|message|meta)$/i;

function collect(value: unknown, out: Row[], depth: number): void {
  if (out.length >= MAX_RECORDS || depth > 3) return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, MAX_RECORDS)) if (isRecord(item)) out.push(item);
    return;
  }
  if (!isRecord(value)) return;
  const entries = Object.entries(value).slice(0, 200);
  const children = entries.filter(([, child]) => Array.isArray(child) || isRecord(child));
  // A record: it has its own id, or nothing nested to unwrap (`{ id, total, items: [...] }` stays one record).
  if ('id' in value || 'uuid' in value || children.length === 0) {
    out.push(value);
    return;
  }
  // `{ order: {...} }`, `{ data: { orders: [...] } }`: the records are inside; fields of its own make it one too.
  if (entries.some(([key, child]) => !children.some(([name]) => name === key) && !WRAPPER_FIELD.test(key) && child !== null)) out.push(value);
  for (const [, child] of children.slice(0, 10)) collect(child, out, depth + 1);
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

// Arguments for a database function the scan could not call bare. PostgREST answers a call with the wrong arguments
// with 404 PGRST202 and, when a function of that name exists, a hint naming its parameters ("Perhaps you meant to
// call the function public.get_booking(p_id)"). A function that takes an id is called again with an id the scan
// already read: the `id` of a row of a readable table (best when the table matches the function's or parameter's
// name), or an id seen in the site's own requests and pages. Parameters that are not ids are never guessed.
import { normaliseFieldName } from './sensitive-fields';

/** PostgREST's hint when a function of that name exists with other parameters; the schema is optional. */
export const FUNCTION_HINT = /^Perhaps you meant to call the function (?:[\w$]{1,63}\.)?([\w$]{1,63})\(([\w$, ]{0,400})\)$/;
export const UUID_VALUE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** uuids in text (URLs, a bundle), each bounded. */
export const UUID_IN_TEXT = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** `column=eq.<id>` filters in captured PostgREST requests. */
export const EQ_FILTER = /[?&]([\w]{1,63})=eq\.([\w-]{1,64})/g;
const INT_ID = /^[1-9]\d{0,18}$/;
const ID_PARAM = /(?:^|_)(?:id|uuid)$/;
const VERB = /^(?:get|fetch|find|read|load|lookup|view|show|select|list|search|query)_/;

/** The parameter names a PGRST202 answer's hint gives for `name`; undefined when it names none or another function. */
export function hintedParameters(body: string, name: string): string[] | undefined {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (answer === null || typeof answer !== 'object') return undefined;
  const { code, hint } = answer as { code?: unknown; hint?: unknown };
  if (code !== 'PGRST202' || typeof hint !== 'string') return undefined;
  const m = FUNCTION_HINT.exec(hint.slice(0, 600));
  if (!m || m[1] !== name) return undefined;
  const params = m[2]!
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return params.length > 0 && params.length <= 4 ? params : undefined;
}

/** A value the scan read, where it read it. */
export interface KnownId {
  value: string;
  /** The table it came from, when read from a table row. */
  table?: string;
  /** Its column (or filter) name. */
  column: string;
}

/** Ids in the rows the scan read: uuid and integer values of `id` and `*_id` columns. */
export function idsInRows(rows: ReadonlyArray<{ table: string; row: Record<string, unknown> }>): KnownId[] {
  const ids: KnownId[] = [];
  for (const { table, row } of rows) {
    for (const [column, value] of Object.entries(row).slice(0, 100)) {
      const text = typeof value === 'number' || typeof value === 'string' ? String(value) : '';
      if (ID_PARAM.test(normaliseFieldName(column)) && (UUID_VALUE.test(text) || INT_ID.test(text))) ids.push({ value: text, table, column });
    }
  }
  return ids;
}

/** Ids in texts the site sent or asked for (request URLs, page URLs, bundles): eq. filters and uuids, at most 10. */
export function idsInTexts(texts: readonly string[], perText = 4_000): KnownId[] {
  const ids = new Map<string, KnownId>();
  for (const text of texts.slice(0, 200)) {
    const bounded = text.slice(0, perText);
    for (const m of bounded.matchAll(EQ_FILTER)) if (UUID_VALUE.test(m[2]!) || INT_ID.test(m[2]!)) ids.set(m[2]!, { value: m[2]!, column: m[1]! });
    for (const m of bounded.matchAll(UUID_IN_TEXT)) if (!ids.has(m[0])) ids.set(m[0], { value: m[0], column: 'id' });
    if (ids.size >= 10) break;
  }
  return [...ids.values()].slice(0, 10);
}

const singular = (word: string): string => word.replace(/ies$/, 'y').replace(/s$/, '');

/** What the parameter is an id of: p_booking_id → booking; p_id or id → what the function is named after. */
function entityOf(param: string, fn: string): string {
  const stem = normaliseFieldName(param).replace(/^(?:p|in|arg|_p)_/, '');
  const named = stem.replace(/_?(?:id|uuid)$/, '');
  return (
    named ||
    normaliseFieldName(fn)
      .replace(VERB, '')
      .replace(/_(?:by_id|details?|info|data)$/, '')
  );
}

function score(id: KnownId, param: string, entity: string): number {
  const column = normaliseFieldName(id.column);
  const stem = normaliseFieldName(param).replace(/^(?:p|in|arg|_p)_/, '');
  if (id.table && singular(id.table) === singular(entity) && column === 'id') return 4;
  if (column === stem && stem !== 'id') return 3;
  if (id.table && (singular(id.table).includes(singular(entity)) || singular(entity).includes(singular(id.table))) && column === 'id') return 2;
  return column === 'id' ? 1 : 0;
}

/** One id for each parameter, the best match first; undefined when a parameter is not an id or nothing fits. */
export function chooseArguments(fn: string, params: readonly string[], known: readonly KnownId[]): Array<{ param: string; id: KnownId }> | undefined {
  const chosen: Array<{ param: string; id: KnownId }> = [];
  for (const param of params) {
    const stem = normaliseFieldName(param).replace(/^(?:p|in|arg|_p)_/, '');
    if (!ID_PARAM.test(stem) && stem !== 'id') return undefined;
    const entity = entityOf(param, fn);
    let best: KnownId | undefined;
    let bestScore = 0;
    for (const id of known) {
      const s = score(id, param, entity);
      if (s > bestScore) [best, bestScore] = [id, s];
    }
    if (!best) return undefined;
    chosen.push({ param, id: best });
  }
  return chosen;
}

// What decides that a signed-in user reads another user's data: a row (or storage folder) the account read that holds
// another account's user id, or, with one account, an owner column holding a user id that is not the reader's. A user
// who reads only her own rows is not a finding. Pure.
import { UUID_VALUE } from '../analysis/function-arguments';
import { normaliseFieldName } from '../analysis/sensitive-fields';
import type { SiteAccount } from '../types';

type Row = Record<string, unknown>;

/** Columns that say whose a row is (normalised names: user_id, owner_id, created_by, profile_id…). */
export const OWNER_COLUMN =
  /^(?:user|owner|author|creator|created_by|profile|member|account|customer|client|uploaded_by|uploader|buyer|seller|patient|student|employee)(?:_?(?:id|uuid))?$|^(?:uid|user_uuid|auth_id|auth_user_id)$/;
/** Tables of people, where the row's own `id` is the user's id (Supabase's profiles: id references auth.users). */
export const PEOPLE_TABLE = /^(?:profiles?|users?|user_profiles|accounts?|members?|customers?|people|persons|employees|students|patients)$/i;

/** Whose rows an account read, beside its own. */
export interface CrossRead {
  /** The account that read them (index in site.accounts). */
  reader: number;
  /** The rows that belong to someone else (at most a few). */
  rows: Row[];
  /** The column that says so. */
  column: string;
  /** The other test account they belong to, when it is one of the scan's. */
  owner?: number;
  /** How many rows the reader got in all. */
  read: number;
}

/** An account's read of one table, view or function. */
export interface AccountRows {
  index: number;
  rows: Row[];
}

const idText = (value: unknown): string | undefined => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);

/** The column and other account (if one of ours) showing `row` is not the reader's; undefined when it may be hers. */
function foreignOwner(row: Row, reader: SiteAccount, others: ReadonlyArray<{ index: number; userId: string }>, table: string): { column: string; owner?: number } | undefined {
  const entries = Object.entries(row).slice(0, 200);
  for (const [column, value] of entries) {
    const text = idText(value);
    const other = text === undefined ? undefined : others.find((o) => o.userId === text);
    if (other && text !== reader.userId) return { column, owner: other.index };
  }
  for (const [column, value] of entries) {
    const name = normaliseFieldName(column);
    const owns = OWNER_COLUMN.test(name) || (name === 'id' && PEOPLE_TABLE.test(table));
    const text = idText(value);
    // Only user-id-shaped values: an owner column holding a team name or a number says nothing about another user.
    if (owns && text !== undefined && UUID_VALUE.test(text) && text !== reader.userId) return { column };
  }
  return undefined;
}

/** The first account (in order) that read rows belonging to another user, with those rows. */
export function crossRead(accounts: readonly SiteAccount[], reads: readonly AccountRows[], table: string): CrossRead | undefined {
  const signedIn = accounts.flatMap((a, index) => (a.signedIn && a.userId ? [{ index, userId: a.userId }] : []));
  for (const read of reads) {
    const reader = accounts[read.index];
    if (!reader?.signedIn || !reader.userId) continue;
    const others = signedIn.filter((o) => o.index !== read.index);
    const foreign: Array<{ row: Row; column: string; owner?: number }> = [];
    for (const row of read.rows) {
      const owner = foreignOwner(row, reader, others, table);
      if (owner) foreign.push({ row, ...owner });
    }
    if (foreign.length === 0) continue;
    const best = foreign.find((f) => f.owner !== undefined) ?? foreign[0]!;
    return { reader: read.index, rows: foreign.slice(0, 5).map((f) => f.row), column: best.column, owner: best.owner, read: read.rows.length };
  }
  return undefined;
}

/** Storage entries (folder or file names) an account listed that are named after another user. */
export function crossListing(
  accounts: readonly SiteAccount[],
  listings: ReadonlyArray<{ index: number; names: string[] }>,
): { reader: number; names: string[]; owner?: number } | undefined {
  for (const listing of listings) {
    const reader = accounts[listing.index];
    if (!reader?.signedIn || !reader.userId) continue;
    const foreign = listing.names.filter((name) => name !== reader.userId && (UUID_VALUE.test(name) || accounts.some((a) => a.userId === name)));
    if (foreign.length === 0) continue;
    const owner = accounts.findIndex((a, i) => i !== listing.index && a.userId !== undefined && foreign.includes(a.userId));
    return { reader: listing.index, names: foreign.slice(0, 5), owner: owner >= 0 ? owner : undefined };
  }
  return undefined;
}

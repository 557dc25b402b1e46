import type { Pool } from 'pg';
import type { ApiKey, CreatedApiKey } from '../../common/api-keys';
import type { PageQuery } from '../../common/pagination';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import { generateApiKey, hashApiKey } from './keys';
import { HttpError } from '../http-errors';

/** Keys one workspace may hold at once: enough for every CI job and agent, few enough to list and audit. */
export const MAX_API_KEYS_PER_WORKSPACE = 50;

interface KeyRow {
  id: string;
  name: string;
  last_four: string;
  created_at: string;
  last_used: string | null;
  sort_at: string;
}

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const LIST_SQL = `
select id, name, last_four, ${iso('created_at')} as created_at, ${iso('last_used_at')} as last_used, ${cursorTimestampSql('created_at')} as sort_at
  from api_keys
 where workspace_id = $1 __AFTER__
 order by created_at desc, id desc
 limit $2`;

/**
 * The API keys of one workspace: issued here, kept as a hash, listed without the key, revoked by deletion. Every
 * member sees and may revoke the workspace's keys; each key acts for the member who made it (`user_id`).
 */
export class ApiKeyService {
  constructor(private readonly pool: Pool) {}

  /** Issues a key of the workspace acting for its maker; the answer is the only place the key itself ever appears. */
  async create(workspaceId: string, userId: string, name: string): Promise<CreatedApiKey> {
    const key = generateApiKey();
    // The count and the insert in one statement, so two parallel requests cannot both pass the maximum.
    const { rows } = await this.pool.query<{ id: string; created_at: string }>(
      `insert into api_keys (workspace_id, user_id, name, key_hash, last_four)
       select $1, $2, $3, $4, $5 where (select count(*) from api_keys where workspace_id = $1) < $6
       returning id, ${iso('created_at')} as created_at`,
      [workspaceId, userId, name, hashApiKey(key), key.slice(-4), MAX_API_KEYS_PER_WORKSPACE],
    );
    const row = rows[0];
    if (!row) {
      throw new HttpError(
        409,
        `This workspace already has ${MAX_API_KEYS_PER_WORKSPACE} API keys, the most one workspace may hold. Revoke one you no longer use, then create a new one.`,
      );
    }
    return { id: row.id, name, key, created_at: row.created_at };
  }

  /** The workspace's keys, newest first, without the keys themselves. */
  async list(workspaceId: string, { limit, cursor }: PageQuery): Promise<{ items: ApiKey[]; next: string | null }> {
    const after = decodeCursor(cursor);
    const { rows } = await this.pool.query<KeyRow>(
      after
        ? { text: LIST_SQL.replace('__AFTER__', 'and (created_at, id) < ($3::timestamptz, $4::uuid)'), values: [workspaceId, limit + 1, after.at, after.id] }
        : { text: LIST_SQL.replace('__AFTER__', ''), values: [workspaceId, limit + 1] },
    );
    const page = pageOf(rows, limit, (row) => ({ at: row.sort_at, id: row.id }));
    return { items: page.items.map(({ id, name, last_four, created_at, last_used }) => ({ id, name, last_four, created_at, last_used })), next: page.next };
  }

  /** Deletes a key of the workspace; another workspace's key or an unknown id is a 404. Returns the deleted key's hash. */
  async remove(workspaceId: string, id: string): Promise<string> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new HttpError(404, 'API key not found');
    const { rows } = await this.pool.query<{ key_hash: string }>('delete from api_keys where id = $1 and workspace_id = $2 returning key_hash', [id, workspaceId]);
    if (!rows[0]) throw new HttpError(404, 'API key not found');
    return rows[0].key_hash;
  }
}

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { databaseForTests } from '../testing/fresh-database';
import { WorkspaceAccess } from './access';

const database = databaseForTests();

describe("a new account's personal workspace", () => {
  it('is made once when its first requests come together, in one process and on two server instances', async () => {
    for (let round = 0; round < 15; round++) {
      const user = { id: randomUUID(), email: `together-${round}@example.com` };
      // Two instances (team mode) and, in each, several requests at once.
      const instances = [new WorkspaceAccess(database.pool), new WorkspaceAccess(database.pool)];
      const outcomes = await Promise.allSettled(instances.flatMap((access) => Array.from({ length: 4 }, () => access.resolve(user, undefined))));
      expect(outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => String(outcome.reason))).toEqual([]);
      const { rows } = await database.pool.query('SELECT role FROM workspace_members WHERE workspace_id = $1', [user.id]);
      expect(rows).toEqual([{ role: 'owner' }]);
    }
  });
});

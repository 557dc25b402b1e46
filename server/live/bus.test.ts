import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../testing/fresh-database';
import type { LiveMessage } from '../../common/projects';
import { startLiveBus, type LiveBus } from './bus';

/** A progress message; the bus passes messages through as they are. */
const progress = (scanId: string) => ({ type: 'scan.progress', project_id: 'p1', scan_id: scanId, progress: { phase: 'crawl' } }) as unknown as LiveMessage;

describe('the live bus', () => {
  let database: FreshDatabase | undefined;
  let bus: LiveBus | undefined;
  afterEach(async () => {
    await bus?.close();
    await database?.drop();
  });

  it('delivers a message, and a message it cannot send is logged and dropped, never a rejection', async () => {
    database = await freshDatabase({ migrated: false });
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    pool.on('error', () => undefined);
    const logged: string[] = [];
    bus = await startLiveBus(database.url, pool, (_level, message) => logged.push(message));
    const received = new Promise((resolve) => bus!.subscribe('w1', resolve));
    await bus.publish('w1', progress('s1'));
    expect(await received).toMatchObject({ type: 'scan.progress', scan_id: 's1' });

    await pool.end();
    await expect(bus.publish('w1', progress('s2'))).resolves.toBeUndefined();
    await expect(bus.publish('w1', progress('s3'))).resolves.toBeUndefined();
    expect(logged.filter((line) => line.includes('could not be sent'))).toHaveLength(1);
  });
});

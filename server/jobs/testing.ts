import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import type { ScanResult } from '../../common/scan';
import { loadSampleResult } from '../../engine/report/__fixtures__/load';
import type { Db } from '../db';
import type { MailMessage } from '../mail/mailer';
import type { PublicScanJobDeps } from '../public-scans/job';
import { ReportLinks } from '../reports/links';
import type { ScanJobDeps } from './scan-job';

// What the tests of the jobs share when they run a job without a server or a queue, against their real database.

/**
 * A scan job's parts: events and live messages go nowhere, a silent logger, report links under a test secret,
 * private addresses allowed, no rendering. `overrides` replace any of them (a test's own events to read them, a
 * stand-in engine as `scan`).
 */
export function scanJobDeps(db: Db, overrides: Partial<ScanJobDeps> = {}): ScanJobDeps {
  return {
    db,
    events: { record: async () => undefined, clearEarlierAttempts: async () => undefined, recordForAttempt: async () => undefined } as unknown as ScanJobDeps['events'],
    live: { publish: async () => undefined } as unknown as ScanJobDeps['live'],
    logger: pino({ level: 'silent' }),
    links: new ReportLinks('a test link secret', () => 'http://127.0.0.1:1'),
    policy: { allowPrivate: true },
    render: false,
    ...overrides,
  };
}

/** A public scan job's parts: its mail kept in `sent`, a silent logger, private addresses allowed, one page. */
export function publicScanJobDeps(db: Db, sent: MailMessage[], overrides: Partial<PublicScanJobDeps> = {}): PublicScanJobDeps {
  return {
    db,
    mailer: { destination: 'test', send: async (message) => void sent.push(message), close: () => undefined },
    logger: pino({ level: 'silent' }),
    policy: { allowPrivate: true },
    render: false,
    maxPages: 1,
    reportLink: (reportId) => `http://127.0.0.1/${reportId}`,
    ...overrides,
  };
}

/** A stand-in engine's answer: the sample result (engine/report/__fixtures__), for the URL it was asked to scan. */
export const sampleScan = async (url: string): Promise<ScanResult> => ({ ...loadSampleResult(), target: { url, finalUrl: url } });

/** A logger whose lines (warnings and above) the test reads. */
export function capturedLogger(): { log: Logger; lines: { msg: string; level: number }[] } {
  const lines: { msg: string; level: number }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { msg: string; level: number });
      done();
    },
  });
  return { log: pino({ level: 'warn' }, stream), lines };
}

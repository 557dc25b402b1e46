import { describe, expect, it } from 'vitest';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { backupKind, exposedBackup } from './exposed-backup';

const ORIGIN = 'https://shop.example';
const SPA = '<!doctype html><html><body><div id="app"></div></body></html>';
const site = (probes: Record<string, ExchangeInit>) => makeSite({ root: { url: `${ORIGIN}/`, body: SPA }, notFound: { url: `${ORIGIN}/vibeeval-1-404.txt`, body: SPA }, probes });
const probe = (path: string, body: string, contentType = 'application/octet-stream') => ({ [`exposed-backup:${path}`]: { url: `${ORIGIN}${path}`, body, contentType } });

describe('exposed-backup', () => {
  it('plans binary probes including an archive named after the host', () => {
    const planned = plannedProbes(exposedBackup, site({}));
    expect(planned.every((p) => p.binary)).toBe(true);
    expect(planned.map((p) => p.url)).toContain(`${ORIGIN}/shop.example.zip`);
  });

  it('classifies bodies by magic bytes and content', () => {
    expect(backupKind('PK\x03\x04\x14\x00')).toBe('zip');
    expect(backupKind('\x1f\x8b\x08\x00')).toBe('gzip');
    expect(backupKind('\x1f\uFFFD\x08\x00')).toBe('gzip');
    expect(backupKind('-- MySQL dump 10.13\nCREATE TABLE `users` (id int);')).toBe('sql');
    expect(backupKind('<!doctype html><p>CREATE TABLE is a SQL statement</p>')).toBeUndefined();
  });

  it.each([
    ['SPA shell on every path', probe('/backup.zip', SPA, 'text/html')],
    ['HTML page about SQL', probe('/dump.sql', '<html><body>INSERT INTO docs</body></html>', 'text/html')],
    ['zip where a .bak is expected', probe('/index.php.bak', 'PK\x03\x04')],
    ['php where a dump is expected', probe('/db.sql', '<?php echo 1;')],
  ])('no finding: %s', (_name, probes) => {
    expect(exposedBackup.run(site(probes))).toEqual([]);
  });

  it('reports archives, dumps and PHP backups', () => {
    const findings = exposedBackup.run(
      site({
        ...probe('/backup.zip', 'PK\x03\x04rest'),
        ...probe('/dump.sql', "-- dump\nINSERT INTO users VALUES (1,'a@b.c');", 'text/plain'),
        ...probe('/wp-config.php.bak', "<?php define('DB_PASSWORD', 'hunter2hunter2');", 'text/plain'),
      }),
    );
    expect(findings.map((f) => [f.key, f.severity])).toEqual([
      ['/backup.zip', 'high'],
      ['/dump.sql', 'high'],
      ['/wp-config.php.bak', 'critical'],
    ]);
    expect(JSON.stringify(findings[2])).not.toContain('hunter2hunter2');
  });
});

import { exchangeEvidence, looksLikeHtmlDocument, pathProbes, probeKey, usableAnswer } from '../analysis/probe-answers';
import { defineCheck, type FindingDraft, type SiteBeforeProbes } from '../types';

const ID = 'exposed-backup';

/** Archive and dump names that deployment scripts and hosting panels leave behind most often. */
export const BACKUP_PATHS = [
  '/backup.zip',
  '/backup.tar.gz',
  '/backup.sql',
  '/dump.sql',
  '/db.sql',
  '/database.sql',
  '/site.zip',
  '/www.zip',
  '/wp-config.php.bak',
  '/index.php.bak',
] as const;

type Kind = 'zip' | 'gzip' | 'sql' | 'php';

/** What a body is, by magic bytes or content; undefined when it proves nothing. Bodies are latin1 text. */
export function backupKind(body: string): Kind | undefined {
  if (body.startsWith('PK\x03\x04') || body.startsWith('PK\x05\x06')) return 'zip';
  // 0x8b may arrive as U+FFFD when a runner decoded the body as UTF-8.
  // eslint-disable-next-line no-control-regex -- gzip magic bytes
  if (/^\x1f(?:\x8b|\uFFFD)\x08/.test(body)) return 'gzip';
  const head = body.slice(0, 65_536);
  if (looksLikeHtmlDocument(head)) return undefined;
  if (/^\s*<\?php\b/.test(head)) return 'php';
  if (/^(?:--|\/\*|#|SET\s|CREATE\s|INSERT\s|DROP\s|LOCK\s|USE\s|BEGIN|PRAGMA\s)/im.test(head) && /\b(?:CREATE\s+TABLE|INSERT\s+INTO)\b/i.test(head)) return 'sql';
  return undefined;
}

function hostArchive(site: SiteBeforeProbes): string {
  return `/${new URL(site.origin).hostname}.zip`;
}

function paths(site: SiteBeforeProbes): string[] {
  return [...BACKUP_PATHS, hostArchive(site)];
}

const DESCRIPTION: Record<Kind, string> = {
  zip: 'a ZIP archive',
  gzip: 'a gzip archive',
  sql: 'an SQL database dump',
  php: 'PHP source code (served as text, not executed)',
};

export const exposedBackup = defineCheck({
  id: ID,
  family: 'exposed-files',
  title: 'Backup or database dump exposed',
  severity: 'high',
  confidence: 'high',
  cwe: 530,
  owasp: 'A02',
  description: 'Requests common backup archive, SQL dump and .bak file names and reports those that answer with an archive, a dump or source code.',
  remediation:
    'Delete backups and dumps from the web root and keep them in private storage. Assume the data and any credentials inside them are compromised: rotate passwords and keys, and check whether personal data was exposed.',
  references: [
    'https://cwe.mitre.org/data/definitions/530.html',
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information',
  ],
  probes: (site) => pathProbes(ID, site, paths(site), { binary: true }),
  run(site) {
    const findings: FindingDraft[] = [];
    for (const path of paths(site)) {
      const answer = usableAnswer(site, probeKey(ID, path));
      if (!answer) continue;
      const kind = backupKind(answer.body);
      // A .bak of a PHP file proves itself with <?php; a .sql or archive name must carry a dump or archive.
      if (!kind || (kind === 'php') !== path.endsWith('.bak')) continue;
      const credentials = kind === 'php' && /\b(?:DB_PASSWORD|password)\b/i.test(answer.body);
      const match =
        kind === 'sql'
          ? (/^[^\n\r\u2028\u2029]*?\b(?:CREATE\s+TABLE|INSERT\s+INTO)\b[^\n\r\u2028\u2029]*/im.exec(answer.body)?.[0] ?? '').slice(0, 200)
          : kind === 'php'
            ? answer.body.slice(0, 120)
            : `${kind} magic bytes at offset 0`;
      findings.push({
        url: answer.url,
        key: path,
        severity: credentials ? 'critical' : 'high',
        detail:
          `${path} is downloadable and is ${DESCRIPTION[kind]} (${answer.bodyBytes} bytes${answer.truncated ? ' read before the size cap' : ''}).` +
          (kind === 'sql' ? ' Database dumps usually contain user records and password hashes.' : '') +
          (kind === 'zip' || kind === 'gzip' ? ' Site archives usually contain source code and configuration files with credentials.' : '') +
          (credentials ? ' It contains database credentials.' : ''),
        evidence: exchangeEvidence(answer, match),
      });
    }
    return findings;
  },
});

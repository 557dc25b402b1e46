import { formatRequest, formatResponse, looksLikeSecretValue, KNOWN_TOKEN, maskSecrets } from '../analysis/probe-answers';
import { defineCheck, type Exchange, type FindingDraft, type Severity } from '../types';

const ID = 'suspicious-comments';
const MAX_SCRIPT = 3_000_000;

const SECURITY_WORD =
  /\b(?:auth\w*|login|passw(?:or)?d|credential\w*|secret\w*|token|api[ _-]?key|security|insecure|vuln\w*|xss|csrf|sql|injection|sanitiz\w*|escap\w*|validat\w*|permission\w*|privilege\w*|admin\w*|bypass\w*|hardcoded|hard-coded|encrypt\w*|decrypt\w*|rls|row level security|service[_ ]role|cors|disable[ds]?)\b/i;
const TASK_MARKER = /\b(?:TODO|FIXME|HACK|XXX|BUG|TEMP|KLUDGE)\b/;
const CREDENTIAL = /\b(passw(?:or)?d|pwd|secret|api[_-]?key|token|credentials?)\b\s*[:=]\s*['"]?([^\s'"<>,;]{4,})/i;
const PRIVATE_IP = /\b(?:10\.(?:\d{1,3}\.){2}\d{1,3}|192\.168\.\d{1,3}\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])\.\d{1,3}\.\d{1,3})\b/;
const INTERNAL_HOST = /(?<![a-z0-9.-])[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:internal|corp|intranet|lan|local)\b|\b(?:staging|stage|dev|uat|qa)\.[a-z0-9-]+\.[a-z]{2,}\b/i;
const HIDDEN_AREA = /\/[\w-]*(?:admin|debug|internal|backdoor|staging)[\w/-]*|\b(?:admin|debug|internal|backdoor|staging)\b[^\n]{0,80}(?:\/[\w/-]{2,}|https?:\/\/\S+)/i;

export interface CommentVerdict {
  reason: string;
  severity: Severity;
}

/** Why a comment matters, or undefined when it is ordinary (licence banners, plain TODOs without a security word). */
export function judgeComment(comment: string, opts: { html: boolean }): CommentVerdict | undefined {
  const text = comment.slice(0, 2_000);
  if (/^\s*(?:[!@]\s*)?(?:@license|@preserve|license|copyright|\(c\))/i.test(text) || /sourceMappingURL=/.test(text)) return undefined;
  if (KNOWN_TOKEN.test(text)) return { reason: 'contains a credential in a known token format', severity: 'low' };
  const credential = CREDENTIAL.exec(text);
  if (credential && looksLikeSecretValue(credential[2]!, credential[1])) return { reason: 'contains what looks like a credential', severity: 'low' };
  if (TASK_MARKER.test(text) && SECURITY_WORD.test(text)) return { reason: 'is a to-do note about security-relevant code', severity: 'info' };
  if (PRIVATE_IP.test(text) && !/\bversion\b|\bv\d/i.test(text)) return { reason: 'mentions a private IP address', severity: 'info' };
  if (INTERNAL_HOST.test(text)) return { reason: 'mentions an internal or staging host', severity: 'info' };
  // Commented-out links to hidden areas only matter in HTML, where they are a hint to visitors of the page source.
  if (opts.html && HIDDEN_AREA.test(text)) return { reason: 'points to an admin, debug or internal area', severity: 'info' };
  return undefined;
}

/** Comments of a script: block comments and line comments that start a line or follow whitespace (not inside URLs). */
export function scriptComments(source: string): string[] {
  const out: string[] = [];
  const text = source.slice(0, MAX_SCRIPT);
  // Cheap prefilter: minified bundles rarely keep comments, and most comments say nothing of interest.
  if (!/\/\*|(?:^|\s)\/\//.test(text)) return out;
  for (const match of text.matchAll(/\/\*([\s\S]{0,2000}?)\*\/|(?:^|[\s;{}])\/\/([^\n]{0,500})/g)) {
    const body = (match[1] ?? match[2] ?? '').trim();
    if (body) out.push(body);
    if (out.length >= 2_000) break;
  }
  return out;
}

export const suspiciousComments = defineCheck({
  id: ID,
  family: 'disclosure',
  title: 'Suspicious comments in page or script source',
  severity: 'info',
  confidence: 'medium',
  cwe: 615,
  owasp: 'A02',
  description:
    'Reads HTML comments, inline scripts and same-origin scripts for comments that carry credentials, private addresses, internal hosts, hidden admin paths or to-do notes about security; plain TODOs are ignored.',
  remediation:
    'Strip comments from production HTML and bundles (minifiers do this), never keep credentials in source, and track security to-dos in the issue tracker instead of the shipped code.',
  references: ['https://cwe.mitre.org/data/definitions/615.html', 'https://www.zaproxy.org/docs/alerts/10027/'],
  run(site) {
    const findings: FindingDraft[] = [];
    const seen = new Set<string>();
    const report = (exchange: Exchange, url: string, comment: string, verdict: CommentVerdict, where: string) => {
      const key = `${where}:${comment.slice(0, 200)}`;
      if (seen.has(key)) return;
      seen.add(key);
      const shown = maskSecrets(comment.replace(/\s+/g, ' ').slice(0, 300));
      findings.push({
        url,
        key: `${where}:${shown.slice(0, 80)}`,
        severity: verdict.severity,
        detail: `A comment in the ${where} ${verdict.reason}: "${shown.slice(0, 160)}${shown.length > 160 ? '…' : ''}".`,
        evidence: { request: formatRequest(exchange), response: formatResponse(exchange, { headers: ['content-type'], excerpt: shown }), match: shown },
      });
    };
    for (const page of site.pages) {
      if (!page.html) continue;
      for (const comment of page.html.comments) {
        const verdict = judgeComment(comment, { html: true });
        if (verdict) report(page.exchange, page.url, comment, verdict, 'HTML');
      }
      for (const script of page.html.scripts) {
        if (!script.inline) continue;
        for (const comment of scriptComments(script.inline)) {
          const verdict = judgeComment(comment, { html: false });
          if (verdict) report(page.exchange, page.url, comment, verdict, 'inline script');
        }
      }
    }
    for (const asset of site.assets) {
      if (asset.kind !== 'script' || asset.exchange.error || asset.exchange.status !== 200) continue;
      try {
        if (new URL(asset.url).origin !== site.origin) continue; // third-party libraries are not the site's own comments
      } catch {
        continue;
      }
      for (const comment of scriptComments(asset.exchange.body)) {
        const verdict = judgeComment(comment, { html: false });
        if (verdict) report(asset.exchange, asset.url, comment, verdict, 'script');
      }
    }
    return findings;
  },
});

import { exchangeEvidence, looksLikeHtmlDocument, pathProbes, usableAnswer, probeKey } from '../analysis/probe-answers';
import { defineCheck, type Exchange, type FindingDraft } from '../types';

const ID = 'exposed-git';
const HEAD = '/.git/HEAD';
const CONFIG = '/.git/config';

/** A HEAD file: a symbolic ref to a branch, or a detached commit id. */
export function isGitHead(body: string): boolean {
  return /^(?:ref: refs\/[\w./-]+|[0-9a-f]{40}|[0-9a-f]{64})\s*$/.test(body.slice(0, 300));
}

/** A repository config: a [core] section with git's own keys. */
export function isGitConfig(body: string): boolean {
  const text = body.slice(0, 20_000);
  return !looksLikeHtmlDocument(text) && /^[ \t]*\[core\][ \t\r]*$/m.test(text) && /^[ \t]*(?:repositoryformatversion|filemode|bare|logallrefupdates)[ \t]*=/m.test(text);
}

export const exposedGit = defineCheck({
  id: ID,
  family: 'exposed-files',
  title: 'Git repository exposed',
  severity: 'high',
  confidence: 'high',
  cwe: 527,
  owasp: 'A02',
  description: 'Requests /.git/HEAD and /.git/config and reports a .git directory served from the web root.',
  remediation:
    'Remove the .git directory from the deployed files (deploy build output, not the working tree) or deny access to /.git in the server configuration. Rotate any credentials that were ever committed.',
  references: ['https://cwe.mitre.org/data/definitions/527.html', 'https://github.com/projectdiscovery/nuclei-templates/tree/main/http/exposures/configs'],
  probes: (site) => pathProbes(ID, site, [HEAD, CONFIG]),
  run(site) {
    const head = usableAnswer(site, probeKey(ID, HEAD));
    const config = usableAnswer(site, probeKey(ID, CONFIG));
    const proofs: Array<{ exchange: Exchange; match: string }> = [];
    if (head && isGitHead(head.body)) proofs.push({ exchange: head, match: head.body.trim().slice(0, 200) });
    if (config && isGitConfig(config.body)) proofs.push({ exchange: config, match: (/^[ \t]*\[core\][^[]*/m.exec(config.body)?.[0] ?? '[core]').trim().slice(0, 300) });
    if (proofs.length === 0) return [];
    const remote = config && /^[ \t]*url[ \t]*=[ \t]*(\S+)/m.exec(config.body)?.[1];
    const credentialsInRemote = Boolean(remote && /:\/\/[^/\s@:]+:[^/\s@]+@/.test(remote));
    const files = proofs.map(({ exchange }) => new URL(exchange.url).pathname).join(' and ');
    const finding: FindingDraft = {
      url: new URL('/.git/', site.origin).href,
      key: 'git',
      severity: credentialsInRemote ? 'critical' : 'high',
      detail:
        `The .git directory is served (${files} answered with repository content). ` +
        'Tools such as git-dumper can download the objects and reconstruct the full source code and its history, including any secrets ever committed.' +
        (remote ? ` The remote is ${credentialsInRemote ? 'a URL with embedded credentials' : remote.replace(/\/\/[^@/]+@/, '//')}.` : ''),
      evidence: exchangeEvidence(proofs[0]!.exchange, proofs[0]!.match),
    };
    return [finding];
  },
});

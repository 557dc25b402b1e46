import { exchangeEvidence, looksLikeHtmlDocument, looksLikeSecretValue, KNOWN_TOKEN, pathProbes, usableAnswers } from '../analysis/probe-answers';
import { defineCheck, type FindingDraft, type Severity } from '../types';

const ID = 'exposed-env-file';
export const ENV_PATHS = ['/.env', '/.env.local', '/.env.production', '/.env.development', '/.env.backup', '/.env.example'] as const;

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*((?:\S.*)?)$/;

export interface EnvAnalysis {
  assignments: Array<{ key: string; value: string; line: string }>;
  secrets: Array<{ key: string; line: string }>;
}

/** Reads a dotenv file; undefined when the text is not one (too few KEY=VALUE lines among its content). */
export function analyseEnv(body: string): EnvAnalysis | undefined {
  if (looksLikeHtmlDocument(body) || body.trimStart().startsWith('{')) return undefined;
  const lines = body.slice(0, 100_000).split(/\r?\n/);
  const meaningful = lines.filter((line) => line.trim() && !line.trim().startsWith('#'));
  const assignments: EnvAnalysis['assignments'] = [];
  for (const line of meaningful) {
    const match = ASSIGNMENT.exec(line);
    if (match) assignments.push({ key: match[1]!, value: match[2]!.trim(), line });
  }
  if (assignments.length === 0 || assignments.length / meaningful.length < 0.6) return undefined;
  const secrets = assignments.filter(({ key, value }) => looksLikeSecretValue(value.replace(/(?<!\s)\s+#.*$/, ''), key)).map(({ key, line }) => ({ key, line }));
  return { assignments, secrets };
}

export const exposedEnvFile = defineCheck({
  id: ID,
  family: 'exposed-files',
  title: 'Environment file exposed',
  severity: 'high',
  confidence: 'high',
  cwe: 538,
  owasp: 'A02',
  description: "Requests /.env and its usual variants and reports the ones that answer with KEY=VALUE lines instead of the site's normal page.",
  remediation:
    'Remove .env files from the web root or block dot-files in the server or hosting configuration, then rotate every credential the file contained: it must be considered leaked.',
  references: [
    'https://cwe.mitre.org/data/definitions/538.html',
    'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information',
  ],
  probes: (site) => pathProbes(ID, site, ENV_PATHS),
  run(site) {
    const findings: FindingDraft[] = [];
    for (const { path, answer } of usableAnswers(site, ID, ENV_PATHS)) {
      const env = analyseEnv(answer.body);
      if (!env) continue;
      const example = path === '/.env.example';
      // An example file documents variable names; it only matters when it carries real-looking tokens.
      const exampleSecrets = env.secrets.filter(({ line }) => KNOWN_TOKEN.test(line));
      const secrets = example ? exampleSecrets : env.secrets;
      const severity: Severity = secrets.length > 0 ? 'critical' : example ? 'info' : 'high';
      const names = env.assignments.map(({ key }) => key);
      const shown = names.slice(0, 12).join(', ') + (names.length > 12 ? `, … (${names.length} in all)` : '');
      const detail =
        `${path} is publicly readable and contains ${env.assignments.length} variable${env.assignments.length === 1 ? '' : 's'} (${shown}).` +
        (secrets.length > 0
          ? ` ${secrets.length} look${secrets.length === 1 ? 's' : ''} like real credentials (${secrets
              .map(({ key }) => key)
              .slice(0, 8)
              .join(', ')}); treat them as leaked.`
          : example
            ? ' It is an example file without real-looking credentials, but it documents the configuration.'
            : '');
      const proof = (secrets[0]?.line ?? env.assignments[0]!.line).slice(0, 300);
      findings.push({ url: answer.url, detail, severity, key: path, evidence: exchangeEvidence(answer, proof) });
    }
    return findings;
  },
});

import { exchangeEvidence, looksLikeSecretValue, KNOWN_TOKEN, pathProbes, usableAnswers } from '../analysis/probe-answers';
import { defineCheck, type FindingDraft, type Severity } from '../types';

const ID = 'exposed-config-json';

/**
 * Config files frameworks and hosts read from the project root: ASP.NET appsettings, Firebase hosting config, Google
 * service-account keys, and generic app configs that AI-generated backends often keep beside the static files.
 */
export const CONFIG_PATHS = ['/config.json', '/app.config.json', '/appsettings.json', '/appsettings.Development.json', '/firebase.json', '/credentials.json'] as const;

const CONFIG_KEY =
  /^(?:api|apiurl|api_url|baseurl|base_url|endpoint|database|db|connectionstrings|connection_string|logging|allowedhosts|env|environment|firebase|hosting|auth|secret|secrets|key|keys|token|server|port|host|redis|mongo|mongodb|postgres|mysql|aws|s3|stripe|supabase|smtp|mail|email|storage|features|type|project_id|private_key|client_email|jwt|oauth|sentry|app|debug)$/i;
const SERVER_SIDE_KEY = /^(?:connectionstrings|connection_string|database|db|redis|mongo|mongodb|postgres|mysql|smtp|mail|private_key|secret|secrets|jwt|logging)$/i;

interface Walked {
  secrets: Array<{ path: string; value: string }>;
}

function walk(value: unknown, path: string, out: Walked, depth = 0): void {
  if (depth > 8 || out.secrets.length > 20) return;
  if (typeof value === 'string') {
    const key = path.split('.').pop() ?? '';
    if (looksLikeSecretValue(value, key) || KNOWN_TOKEN.test(value)) out.secrets.push({ path, value });
    return;
  }
  if (Array.isArray(value)) value.slice(0, 50).forEach((item, i) => walk(item, `${path}[${i}]`, out, depth + 1));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key, out, depth + 1);
}

export interface ConfigAnalysis {
  keys: string[];
  secrets: Array<{ path: string; value: string }>;
  serviceAccount: boolean;
  serverSide: boolean;
}

/** Reads a JSON config object; undefined when the body is not a JSON object with config-like keys. */
export function analyseConfig(body: string): ConfigAnalysis | undefined {
  if (!body.trimStart().startsWith('{')) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const keys = Object.keys(json);
  if ('mappings' in json && 'version' in json) return undefined; // a source map
  if (!keys.some((key) => CONFIG_KEY.test(key))) return undefined;
  const walked: Walked = { secrets: [] };
  walk(json, '', walked);
  const record = json as Record<string, unknown>;
  const serviceAccount = record.type === 'service_account' && typeof record.private_key === 'string';
  return { keys, secrets: walked.secrets, serviceAccount, serverSide: keys.some((key) => SERVER_SIDE_KEY.test(key)) };
}

export const exposedConfigJson = defineCheck({
  id: ID,
  family: 'exposed-files',
  title: 'Configuration file exposed',
  severity: 'medium',
  confidence: 'high',
  cwe: 538,
  owasp: 'A02',
  description: 'Requests common JSON configuration files (config.json, appsettings.json, firebase.json, credentials.json) and reports those served with configuration content.',
  remediation:
    'Keep server configuration out of the public directory and load secrets from environment variables or a secret manager. Rotate any credential found in the file. Runtime config meant for the browser must contain only public values.',
  references: ['https://cwe.mitre.org/data/definitions/538.html', 'https://cloud.google.com/iam/docs/best-practices-for-managing-service-account-keys'],
  probes: (site) => pathProbes(ID, site, CONFIG_PATHS),
  run(site) {
    const findings: FindingDraft[] = [];
    for (const { path, answer } of usableAnswers(site, ID, CONFIG_PATHS)) {
      const config = analyseConfig(answer.body);
      if (!config) continue;
      const severity: Severity = config.serviceAccount ? 'critical' : config.secrets.length > 0 ? 'high' : config.serverSide ? 'medium' : 'low';
      const detail =
        `${path} is publicly readable JSON configuration with keys ${config.keys.slice(0, 10).join(', ')}${config.keys.length > 10 ? ', …' : ''}.` +
        (config.serviceAccount ? ' It is a Google Cloud service-account key with its private key: anyone can act as that service account.' : '') +
        (config.secrets.length > 0 && !config.serviceAccount
          ? ` ${config.secrets.length} value${config.secrets.length === 1 ? '' : 's'} look like credentials (${config.secrets
              .slice(0, 5)
              .map((s) => s.path)
              .join(', ')}).`
          : '') +
        (severity === 'low' ? ' No credentials were recognised; check that everything in it is meant to be public.' : '');
      const proof = config.secrets[0] ? `"${config.secrets[0].path}": "${config.secrets[0].value}"` : `keys: ${config.keys.slice(0, 10).join(', ')}`;
      findings.push({ url: answer.url, key: path, severity, detail, evidence: exchangeEvidence(answer, proof) });
    }
    return findings;
  },
});

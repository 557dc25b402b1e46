import { exchangeEvidence, pathProbes, probeKey, usableAnswer } from '../analysis/probe-answers';
import { defineCheck } from '../types';

const ID = 'exposed-ds-store';
const PATH = '/.DS_Store';
const MAGIC = '\x00\x00\x00\x01Bud1';

/**
 * File names recorded in a .DS_Store (bodies kept as latin1 text, one character per byte). Each record starts with
 * the name's length in UTF-16 units (4 bytes, big-endian), the UTF-16BE name, then a 4-letter record code and type.
 */
export function dsStoreNames(body: string, limit = 30): string[] {
  const names = new Set<string>();
  // eslint-disable-next-line no-control-regex -- the format is binary
  const record = /\x00\x00\x00([\x01-\xff])((?:\x00[\x20-\x7e]){1,255})[A-Za-z0-9]{4}(?:long|shor|bool|blob|type|ustr|comp|dutc)/g;
  for (const match of body.matchAll(record)) {
    const length = match[1]!.charCodeAt(0);
    const name = match[2]!.split('\x00').join('');
    if (name.length === length && name !== '.') names.add(name);
    if (names.size >= limit) break;
  }
  return [...names];
}

export const exposedDsStore = defineCheck({
  id: ID,
  family: 'exposed-files',
  title: '.DS_Store file exposed',
  severity: 'low',
  confidence: 'high',
  cwe: 538,
  owasp: 'A02',
  description: 'Requests /.DS_Store, the macOS Finder metadata file, which lists the names of files in the directory it was copied from.',
  remediation: 'Delete .DS_Store files from the deployment (add them to .gitignore and the build ignore list) and deny dot-files in the server configuration.',
  references: ['https://cwe.mitre.org/data/definitions/538.html', 'https://github.com/lijiejie/ds_store_exp'],
  probes: (site) => pathProbes(ID, site, [PATH], { binary: true }),
  run(site) {
    const answer = usableAnswer(site, probeKey(ID, PATH));
    if (!answer || !answer.body.startsWith(MAGIC)) return [];
    const names = dsStoreNames(answer.body);
    const sensitive = names.filter((name) => /(?:^\.env|\.sql$|\.zip$|\.tar|\.gz$|\.bak$|backup|\.git$|secret|private|config)/i.test(name));
    return [
      {
        url: answer.url,
        key: PATH,
        severity: sensitive.length > 0 ? 'medium' : 'low',
        detail:
          `/.DS_Store is publicly readable and reveals file names of the deployed directory` +
          (names.length > 0 ? `: ${names.slice(0, 15).join(', ')}${names.length > 15 ? ', …' : ''}.` : '.') +
          (sensitive.length > 0 ? ` Some look sensitive (${sensitive.slice(0, 5).join(', ')}); check whether they are downloadable.` : ''),
        evidence: exchangeEvidence(answer, 'Bud1 magic at offset 0' + (names.length > 0 ? `; names: ${names.slice(0, 10).join(', ')}` : '')),
      },
    ];
  },
});

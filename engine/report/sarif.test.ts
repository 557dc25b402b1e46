import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { artifactUri, renderSarif, SECURITY_SEVERITY } from './sarif';
import { hostileFinding, loadSampleResult, sampleCoverage } from './__fixtures__/load';

/*
 * The SARIF 2.1.0 schema. No npm package ships the OASIS file `sarif-schema-2.1.0.json` (checked: @types/sarif,
 * node-sarif-builder, @microsoft/sarif-builder ship none; @microsoft/jest-sarif and @microsoft/sarif-matcher-utils
 * ship the draft-04 pre-release `sarif-2.1.0-rtm.5.json`). Microsoft's SARIF SDK publishes its 2.1.0 schema in
 * @microsoft/sarif-multitool-linux@5.7.0 (MIT) as `sarif-2.1.0.json`, the same SARIF 2.1.0 constraints written
 * for JSON Schema 2020-12; it is copied from that tarball into __fixtures__ (see the README there).
 */
const schema = JSON.parse(readFileSync(join(__dirname, '__fixtures__', 'sarif-2.1.0.json'), 'utf8')) as object;
// Ajv's default strictness: the schema's anyOf/required pairs trip only the opt-in strictRequired rule.
const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv);
const validateSarif = ajv.compile(schema);

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  helpUri: string;
  help: { text: string; markdown: string };
  properties: { tags: string[]; precision: string; 'security-severity': string };
}
interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } }; message: { text: string } }>;
  partialFingerprints: Record<string, string>;
  properties: { severity: string; confidence: string; url: string };
}
interface SarifLog {
  $schema: string;
  version: string;
  runs: Array<{
    tool: { driver: { name: string; informationUri: string; semanticVersion: string; rules: SarifRule[] } };
    automationDetails: { id: string };
    invocations: Array<{ executionSuccessful: boolean; startTimeUtc: string; endTimeUtc: string; toolExecutionNotifications: unknown[] }>;
    results: SarifResult[];
  }>;
}

function expectValid(text: string): SarifLog {
  const log = JSON.parse(text) as SarifLog;
  const valid = validateSarif(log);
  expect(validateSarif.errors ?? [], ajv.errorsText(validateSarif.errors)).toEqual([]);
  expect(valid).toBe(true);
  return log;
}

describe('renderSarif', () => {
  const sample = loadSampleResult();
  const text = renderSarif(sample);

  it('validates against the SARIF 2.1.0 JSON schema', () => {
    expectValid(text);
    expectValid(renderSarif({ ...sample, findings: [], warnings: [] }));
    expectValid(renderSarif({ ...sample, findings: [hostileFinding(), hostileFinding({ url: 'not a url', cwe: null, references: [] })] }));
  });

  it('describes the tool and the run the way GitHub code scanning reads them', () => {
    const log = expectValid(text);
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0]!;
    expect(run.tool.driver).toMatchObject({ name: 'vibeeval', informationUri: 'https://vibe-eval.com', semanticVersion: '1.0.0' });
    expect(run.automationDetails.id).toBe('vibeeval/vibeshop.example.com/');
    expect(run.invocations[0]).toMatchObject({
      executionSuccessful: true,
      startTimeUtc: sample.startedAt,
      endTimeUtc: sample.finishedAt,
    });
    expect(run.invocations[0]!.toolExecutionNotifications).toHaveLength(sample.warnings.length);
    // GitHub rejects gzip-compressed uploads over 10 MB; uncompressed, this one is far below.
    expect(Buffer.byteLength(text)).toBeLessThan(10 * 1024 * 1024);
  });

  it('has one rule per check with help, tags, precision and a security-severity string', () => {
    const rules = expectValid(text).runs[0]!.tool.driver.rules;
    expect(new Set(rules.map((r) => r.id))).toEqual(new Set(sample.findings.map((f) => f.checkId)));
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(rule.shortDescription.text.length).toBeGreaterThan(0);
      expect(rule.shortDescription.text.length).toBeLessThanOrEqual(1024);
      expect(rule.fullDescription.text.length).toBeLessThanOrEqual(1024);
      expect(rule.name.length).toBeLessThanOrEqual(255);
      expect(rule.help.text.length).toBeGreaterThan(0);
      expect(rule.help.markdown).toContain('### Remediation');
      expect(rule.helpUri).toMatch(/^https:\/\//);
      expect(rule.properties.tags).toContain('security');
      expect(rule.properties['security-severity']).toMatch(/^\d+\.\d$/);
    }
    const service = rules.find((r) => r.id === 'secrets-supabase-service-role')!;
    expect(service.properties.tags).toContain('external/cwe/cwe-798');
    expect(service.properties['security-severity']).toBe('9.5');
    expect(service.help.text).toContain('Rotate the service_role key now');
    expect(rules.find((r) => r.id === 'header-csp-missing')!.properties['security-severity']).toBe('5.5');
    expect(SECURITY_SEVERITY).toEqual({ critical: '9.5', high: '8.0', medium: '5.5', low: '3.0', info: '0.0' });
  });

  it('has one result per finding with level, location, fingerprints and properties', () => {
    const run = expectValid(text).runs[0]!;
    expect(run.results).toHaveLength(sample.findings.length);
    const levels = Object.fromEntries(run.results.map((r) => [r.properties.severity, r.level]));
    expect(levels).toEqual({ critical: 'error', high: 'error', medium: 'warning', low: 'note', info: 'note' });
    for (const result of run.results) {
      const finding = sample.findings.find((f) => f.fingerprint === result.partialFingerprints['vibeevalFingerprint/v1'])!;
      expect(finding).toBeDefined();
      expect(run.tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
      expect(result.ruleId).toBe(finding.checkId);
      expect(result.message.text).toContain(finding.detail);
      expect(result.locations).toHaveLength(1);
      expect(result.locations[0]!.message.text).toBe(finding.url);
      expect(result.partialFingerprints.primaryLocationLineHash).toBe(`${finding.fingerprint}:1`);
      expect(result.properties).toMatchObject({ severity: finding.severity, confidence: finding.confidence, url: finding.url });
    }
    const env = run.results.find((r) => r.ruleId === 'exposed-env-file')!;
    expect(env.locations[0]!.physicalLocation).toEqual({ artifactLocation: { uri: 'vibeshop.example.com/.env' }, region: { startLine: 1 } });
  });

  it('gives each location a relative URI, so GitHub does not reject the upload for an https scheme', () => {
    expect(artifactUri('https://vibeshop.example.com/.env')).toBe('vibeshop.example.com/.env');
    expect(artifactUri('https://a.example/rest/v1/t?select=*&limit=3#x')).toBe('a.example/rest/v1/t?select=*&limit=3');
    expect(artifactUri('http://127.0.0.1:3000/')).toBe('127.0.0.1%3A3000/');
    expect(artifactUri('http://[::1]:8080/x')).toBe('%5B%3A%3A1%5D%3A8080/x');
    expect(artifactUri('not a url')).toBe('not%20a%20url');
    expect(artifactUri('')).toBe('unknown');
    for (const result of expectValid(text).runs[0]!.results) {
      expect(result.locations[0]!.physicalLocation.artifactLocation.uri).not.toMatch(/^[a-z][a-z0-9+.-]*:/i);
    }
  });

  it('carries the coverage in the run properties, and what was not checked as notes', () => {
    const log = expectValid(renderSarif({ ...sample, coverage: sampleCoverage() }));
    const run = log.runs[0]! as SarifLog['runs'][number] & { properties: { coverage: Record<string, unknown> } };
    expect(run.properties.coverage).toMatchObject({ ...sampleCoverage(), complete: false });
    expect(run.properties.coverage.summary).toMatch(/^4 pages and 12 scripts/);
    const notes = run.invocations[0]!.toolExecutionNotifications as Array<{ level: string; message: { text: string } }>;
    expect(notes.filter((n) => n.level === 'note').map((n) => n.message.text)).toContain(
      'Not checked: The Supabase project https://abcdefghijklmnopqrst.supabase.co could not be checked: every request failed (6 requests): abcdefghijklmnopqrst.supabase.co refused the connection. Its data was not tested.',
    );
    // A result without coverage (stored before it was recorded) has none.
    expect((expectValid(text).runs[0] as { properties?: { coverage?: unknown } }).properties?.coverage).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { exposedEnvFile } from '../checks/exposed-env-file';
import { errorDisclosure } from '../checks/error-disclosure';
import { loadSampleResult } from '../report/__fixtures__/load';
import { renderReport } from '../report/index';
import { makeSite } from '../testing/site';
import { maskEvidence, maskSecrets } from './probe-answers';

// Evidence must not leak what it proves: every value that looks like a secret is masked in every field, by its
// name and by its shape, keeping its first four characters so its owner can recognise it.

const ORIGIN = 'https://app.example';
const SPA = '<!doctype html><html><head><title>App</title></head><body><div id="root"></div></body></html>';
const AWS_KEY_ID = 'AKIAIOSFODNN7EXAMPLQ';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

/** A .env as deployed by mistake (CRLF, quotes and # inside values, names that say secret without the word). */
const ENV_FILE = [
  'NODE_ENV=production',
  `AWS_ACCESS_KEY_ID=${AWS_KEY_ID}`,
  `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`,
  `DB_PASSWORD="Tr0ub4dor&3'horse-battery"`,
  'DB_PASS=hunter2hunter2',
  'SESSION_KEY=p#ssw0rd-value-2024 # rotated monthly',
  'STRIPE_KEY=rk_test_51Habcdefghijklmnop',
  'PORT=3000',
  '',
].join('\r\n');
const ENV_SECRETS = [AWS_KEY_ID, AWS_SECRET, "Tr0ub4dor&3'horse-battery", 'hunter2hunter2', 'p#ssw0rd-value-2024', 'ssw0rd-value-2024', 'rk_test_51Habcdefghijklmnop'];

/** A stack trace whose context shows the app's AWS configuration beside the error. */
const STACK_PAGE = [
  "<html><body><pre>TypeError: Cannot read properties of undefined (reading 'id')",
  '    at handler (/srv/app/routes/user.js:12:20)',
  `  config: { region: 'eu-west-1', accessKeyId: '${AWS_KEY_ID}', secretAccessKey: '${AWS_SECRET}' }`,
  `  env: ${AWS_KEY_ID} ${AWS_SECRET}`,
  '</pre></body></html>',
].join('\n');

const leaks = (text: string, secrets: string[]) => secrets.filter((secret) => text.includes(secret));

describe('evidence masking', () => {
  it('masks every secret of an exposed .env in the finding, not only the first, keeping four characters', () => {
    const site = makeSite({
      root: { url: `${ORIGIN}/`, body: SPA },
      notFound: { url: `${ORIGIN}/vibeeval-7f3-404.txt`, body: SPA },
      probes: { 'exposed-env-file:/.env': { url: `${ORIGIN}/.env`, body: ENV_FILE, contentType: 'application/octet-stream' } },
    });
    const [finding] = exposedEnvFile.run(site);
    const shown = JSON.stringify(finding!.evidence);
    expect(leaks(shown, ENV_SECRETS)).toEqual([]);
    for (const start of ['AKIA****', 'wJal****', 'Tr0u****', 'hunt****', 'p#ss****', 'rk_t****']) expect(shown).toContain(start);
    expect(finding!.evidence.response).toContain('NODE_ENV=production');
    expect(finding!.evidence.response).toContain('# rotated monthly');
  });

  it("masks a neighbouring AWS secret in a finding's match context", () => {
    const site = makeSite({ root: { url: `${ORIGIN}/`, body: SPA }, pages: [{ url: `${ORIGIN}/x`, body: STACK_PAGE }] });
    const [finding] = errorDisclosure.run(site);
    expect(finding).toBeDefined();
    expect(leaks(JSON.stringify(finding!.evidence), [AWS_KEY_ID, AWS_SECRET])).toEqual([]);
    expect(finding!.evidence.response).toContain("secretAccessKey: 'wJal****'");
  });

  it('masks by name in every form: env, YAML, JSON, code, PHP, HTML tables, credential headers and cookies', () => {
    const cases: Array<[string, string]> = [
      ['password: s3cr3t-value', 'password: s3cr****'],
      ['{"db_password": "a\\"b-c-d-e"}', '{"db_password": "a\\"b****"}'],
      ['const c = { password: "s3cr3t-value", apiToken: `tok-123456789` };', 'const c = { password: "s3cr****", apiToken: `tok-****` };'],
      ["define('DB_PASSWORD', 'hunter2hunter2');", "define('DB_PASSWORD', 'hunt****');"],
      ['<tr><td class="e">DB_PASSWORD </td><td class="v">hunter2hunter2 </td></tr>', '<tr><td class="e">DB_PASSWORD </td><td class="v">hunt**** </td></tr>'],
      ['DATABASE_URL=postgres://admin:Pa55word-x@db.internal:5432/app', 'DATABASE_URL=postgres://admin:Pa55****@db.internal:5432/app'],
      ['authorization: Bearer abcdefghijklmnop', 'authorization: Bearer abcd****'],
      ['set-cookie: sid=abcdef0123456789; Path=/; HttpOnly', 'set-cookie: sid=abcd****; Path=/; HttpOnly'],
      ['PUBLIC_KEY_ID=site-1234', 'PUBLIC_KEY_ID=site-1234'],
      ['theme: dark-mode-enabled', 'theme: dark-mode-enabled'],
    ];
    for (const [text, expected] of cases) expect(maskSecrets(text), text).toBe(expected);
    expect(maskEvidence({ request: 'GET /x\nauthorization: Basic dXNlcjpwYXNzd29yZA==', match: `${AWS_KEY_ID}` })).toEqual({
      request: 'GET /x\nauthorization: Basic dXNl****',
      match: 'AKIA****',
    });
  });

  it('masks evidence stored unmasked by an earlier version in the HTML and JSON reports of the finding', async () => {
    const sample = loadSampleResult();
    const leaky = {
      ...sample.findings[0]!,
      evidence: { request: 'GET /.env HTTP/1.1', response: `HTTP/1.1 200\n\n${ENV_FILE}`, match: `DB_PASSWORD="Tr0ub4dor&3'horse-battery"` },
    };
    const result = { ...sample, findings: [leaky, ...sample.findings.slice(1)] };
    for (const format of ['html', 'json'] as const) {
      const report = String(await renderReport(result, format));
      expect(leaks(report.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&'), ENV_SECRETS), format).toEqual([]);
      expect(report, format).toContain('hunt****');
    }
  });
});

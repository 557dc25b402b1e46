import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanResultSchema, type ScanOptions, type ScanProgress, type ScanResult } from '../../common/scan';
import { maskEvidence } from '../../engine/analysis/probe-answers';
import { loadSampleResult, sampleCoverage } from '../../engine/report/__fixtures__/load';
import { ScanError, type ScanHooks } from '../../engine/scan';
import {
  DEFAULT_FAIL_ON,
  EXIT,
  SCAN_USAGE_LINE,
  createProgressReporter,
  failingFindings,
  formatSummary,
  parseScanArgs,
  runScanCommand,
  terminalSafe,
  type ScanCommandDeps,
} from './scan-command';

class Capture {
  text = '';
  constructor(
    readonly isTTY = false,
    readonly columns = 80,
  ) {}
  write(chunk: string) {
    this.text += chunk;
    return true;
  }
}

interface Harness {
  deps: ScanCommandDeps;
  stdout: Capture;
  stderr: Capture;
  calls: Array<{ url: string; options: Partial<ScanOptions>; hooks: ScanHooks }>;
  files: Map<string, Buffer | string>;
}

/** The command with a fake scan that reports progress and returns `result` (or throws `error`). */
function harness(options: { result?: ScanResult; error?: Error; progress?: ScanProgress[]; tty?: boolean; controller?: AbortController } = {}): Harness {
  const stdout = new Capture(options.tty, 120);
  const stderr = new Capture(options.tty, 120);
  const calls: Harness['calls'] = [];
  const files = new Map<string, Buffer | string>();
  let clock = 0;
  const deps: ScanCommandDeps = {
    scan: async (url, scanOptions, hooks) => {
      calls.push({ url, options: scanOptions, hooks });
      for (const p of options.progress ?? []) {
        clock += 1500;
        hooks.onProgress?.(p);
      }
      if (options.error) throw options.error;
      return options.result ?? loadSampleResult();
    },
    writeFile: async (path, data) => {
      files.set(path, data);
    },
    stdout,
    stderr,
    signal: options.controller?.signal,
    now: () => clock,
  };
  return { deps, stdout, stderr, calls, files };
}

const clean = (): ScanResult => ({
  ...loadSampleResult(),
  findings: [],
  counts: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
});
const onlyMedium = (): ScanResult => {
  const sample = loadSampleResult();
  return { ...sample, findings: sample.findings.filter((f) => f.severity === 'medium') };
};

describe('parseScanArgs', () => {
  it('takes the URL and leaves every option to the engine defaults', () => {
    expect(parseScanArgs(['https://example.com'])).toEqual({
      kind: 'run',
      options: { url: 'https://example.com', scanOptions: {}, format: null, out: null, failOn: DEFAULT_FAIL_ON, accountsFile: null, baselineFile: null },
    });
    expect(DEFAULT_FAIL_ON).toBe('high');
  });

  it('maps every option', () => {
    const parsed = parseScanArgs([
      'http://127.0.0.1:3000/',
      '--pages',
      '25',
      '--format=sarif',
      '--out',
      'scan.sarif',
      '--fail-on',
      'medium',
      '--active',
      '--no-render',
      '--rate',
      '2.5',
      '--accounts',
      'users.txt',
      '--baseline',
      'baseline.json',
    ]);
    expect(parsed).toEqual({
      kind: 'run',
      options: {
        url: 'http://127.0.0.1:3000/',
        scanOptions: { maxPages: 25, rateLimit: 2.5, active: true, render: false },
        format: 'sarif',
        out: 'scan.sarif',
        failOn: 'medium',
        accountsFile: 'users.txt',
        baselineFile: 'baseline.json',
      },
    });
    expect(parseScanArgs(['x', '--rate', '0'])).toMatchObject({ options: { scanOptions: { rateLimit: 0 } } });
    expect(parseScanArgs(['x', '--fail-on', 'none'])).toMatchObject({ options: { failOn: 'none' } });
  });

  it('takes the format from the --out extension', () => {
    expect(parseScanArgs(['x', '--out', 'r.pdf'])).toMatchObject({ options: { format: 'pdf', out: 'r.pdf' } });
    expect(parseScanArgs(['x', '-o', 'r.sarif.json'])).toMatchObject({ options: { format: 'sarif' } });
    expect(parseScanArgs(['x', '--out', 'r.txt', '--format', 'csv'])).toMatchObject({ options: { format: 'csv', out: 'r.txt' } });
  });

  it.each([
    [[], 'missing the URL to scan'],
    [['a', 'b'], "one URL at a time (got 'a', 'b')"],
    [['x', '--bogus'], "unknown option '--bogus'"],
    [['x', '--pages'], "option '--pages <value>' argument missing"],
    [['x', '--pages', '0'], "--pages must be a whole number from 1 to 10000, not '0'"],
    [['x', '--pages', '2.5'], "--pages must be a whole number from 1 to 10000, not '2.5'"],
    [['x', '--pages', 'ten'], "--pages must be a whole number from 1 to 10000, not 'ten'"],
    [['x', '--pages', '10001'], "--pages must be a whole number from 1 to 10000, not '10001'"],
    [['x', '--rate', '-1'], "option '--rate' needs a value; write --rate=-1 for a value that starts with a dash"],
    [['x', '--rate=-1'], "--rate must be a number of requests per second, 0 or more, not '-1'"],
    [['x', '--rate', 'fast'], "--rate must be a number of requests per second, 0 or more, not 'fast'"],
    [['x', '--fail-on', 'severe'], "--fail-on must be one of critical, high, medium, low, none, not 'severe'"],
    [['x', '--format', 'xml'], "--format must be one of html, pdf, csv, json, sarif, not 'xml'"],
    [['x', '--format', 'pdf'], '--format pdf needs --out FILE (a PDF is not written to the terminal)'],
    [['x', '--out', 'report.txt'], "cannot tell the report format from 'report.txt': add --format (html, pdf, csv, json, sarif)"],
    [['x', '--active=yes'], "option '--active' does not take an argument"],
  ])('rejects %j', (argv, message) => {
    expect(parseScanArgs(argv)).toEqual({ kind: 'error', message });
  });

  it('answers --help before anything else', () => {
    expect(parseScanArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseScanArgs(['https://x', '-h', '--pages', '0'])).toEqual({ kind: 'help' });
  });
});

describe('runScanCommand', () => {
  it('scans with private addresses allowed and prints a summary on stdout; exit 1 when a high finding exists', async () => {
    const h = harness();
    const code = await runScanCommand(['https://vibeshop.example.com', '--pages', '3'], h.deps);
    expect(code).toBe(EXIT.findings);
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0]!.url).toBe('https://vibeshop.example.com');
    expect(h.calls[0]!.options).toEqual({ maxPages: 3 });
    expect(h.calls[0]!.hooks.addressPolicy).toEqual({ allowPrivate: true });
    expect(h.stdout.text).toContain('vibeeval scan of https://vibeshop.example.com/');
    expect(h.stdout.text).toContain('Score      27/100, grade D-');
    expect(h.stdout.text).toContain('Headers    grade D (35 points');
    expect(h.stdout.text).toContain('Findings   2 critical, 2 high, 3 medium, 2 low, 1 info');
    expect(h.stdout.text).toContain('Critical     Environment file (.env) is publicly readable\n               https://vibeshop.example.com/.env');
    expect(h.stdout.text).toContain('Result: failed: 4 findings at or above high');
    expect(h.files.size).toBe(0);
  });

  it.each([
    ['critical', onlyMedium, EXIT.ok],
    ['high', onlyMedium, EXIT.ok],
    ['medium', onlyMedium, EXIT.findings],
    ['low', onlyMedium, EXIT.findings],
    ['none', loadSampleResult, EXIT.ok],
    ['low', clean, EXIT.ok],
  ] as const)('--fail-on %s decides the exit code', async (level, make, expected) => {
    const h = harness({ result: make() });
    expect(await runScanCommand(['https://x.example', '--fail-on', level], h.deps)).toBe(expected);
  });

  it('exits 2 with the message and the usage line on bad usage, without scanning', async () => {
    const h = harness();
    expect(await runScanCommand(['--pages', '3'], h.deps)).toBe(EXIT.usage);
    expect(h.calls).toHaveLength(0);
    expect(h.stderr.text).toBe(`vibeeval scan: missing the URL to scan\n${SCAN_USAGE_LINE}\nRun 'vibeeval scan --help' for details.\n`);
    expect(h.stdout.text).toBe('');
  });

  it('prints the help on stdout and exits 0', async () => {
    const h = harness();
    expect(await runScanCommand(['--help'], h.deps)).toBe(EXIT.ok);
    expect(h.stdout.text).toContain(SCAN_USAGE_LINE);
    expect(h.stdout.text).toContain('--fail-on LEVEL');
    expect(h.calls).toHaveLength(0);
  });

  it.each([
    ['invalid-url', "'http://' is not a valid URL."],
    ['unreachable', 'Could not reach https://nowhere.invalid/: getaddrinfo ENOTFOUND nowhere.invalid'],
    ['address-refused', 'Could not reach http://10.0.0.1/: private or loopback address refused'],
  ] as const)('exits 2 with the message of a ScanError %s', async (code, message) => {
    const h = harness({ error: new ScanError(code, message) });
    expect(await runScanCommand(['http://target'], h.deps)).toBe(EXIT.usage);
    expect(h.stderr.text).toContain(`vibeeval scan: ${message}\n`);
    expect(h.stdout.text).toBe('');
  });

  it('exits 2 when the scan fails unexpectedly', async () => {
    const h = harness({ error: new Error('boom') });
    expect(await runScanCommand(['http://target'], h.deps)).toBe(EXIT.usage);
    expect(h.stderr.text).toContain('vibeeval scan: the scan failed: boom');
  });

  it('exits 130 when Ctrl-C aborts the scan', async () => {
    const controller = new AbortController();
    const h = harness({ controller });
    h.deps.scan = async (_url, _options, hooks) => {
      expect(hooks.signal).toBe(controller.signal);
      controller.abort();
      throw new ScanError('aborted', 'The scan was stopped.');
    };
    expect(await runScanCommand(['http://target'], h.deps)).toBe(EXIT.interrupted);
    expect(h.stderr.text).toContain('stopped');
  });

  it('writes the report to --out and says where in the summary', async () => {
    const h = harness();
    h.deps.render = async (_result, format) => (format === 'pdf' ? Buffer.from('%PDF-1.7') : `<${format}>`);
    expect(await runScanCommand(['https://x.example', '--out', 'report.html', '--fail-on', 'none'], h.deps)).toBe(EXIT.ok);
    expect(h.files.get('report.html')).toBe('<html>');
    expect(h.stdout.text).toContain('Report written to report.html (html)');
    expect(await runScanCommand(['https://x.example', '--format', 'pdf', '--out', 'r.bin'], h.deps)).toBe(EXIT.findings);
    expect(h.files.get('r.bin')).toEqual(Buffer.from('%PDF-1.7'));
  });

  it('renders real reports with the engine renderers', async () => {
    const h = harness();
    await runScanCommand(['https://x.example', '--out', 'r.sarif'], h.deps);
    expect(JSON.parse(h.files.get('r.sarif') as string)).toMatchObject({ version: '2.1.0' });
  });

  it('with --format and no --out, writes the report to stdout and the summary to stderr', async () => {
    const h = harness();
    expect(await runScanCommand(['https://x.example', '--format', 'json'], h.deps)).toBe(EXIT.findings);
    // The JSON report is the result as stored, its evidence masked once more (as every report format does).
    const sample = loadSampleResult();
    expect(JSON.parse(h.stdout.text)).toEqual({ ...sample, findings: sample.findings.map((finding) => ({ ...finding, evidence: maskEvidence(finding.evidence) })) });
    expect(h.stderr.text).toContain('Score      27/100');
  });

  it('exits 2 when the report cannot be written or rendered', async () => {
    const h = harness();
    h.deps.writeFile = async () => {
      throw new Error("EACCES: permission denied, open '/root/r.csv'");
    };
    expect(await runScanCommand(['https://x.example', '--out', '/root/r.csv'], h.deps)).toBe(EXIT.usage);
    expect(h.stderr.text).toContain('vibeeval scan: could not write /root/r.csv: EACCES');
    const h2 = harness();
    h2.deps.render = async () => {
      throw new Error('browser crashed');
    };
    expect(await runScanCommand(['https://x.example', '--out', 'r.pdf'], h2.deps)).toBe(EXIT.usage);
    expect(h2.stderr.text).toContain('could not render the pdf report: browser crashed');
  });

  const progress: ScanProgress[] = [
    { phase: 'crawl', pagesDone: 0, pagesTotal: 10, checksRun: 0, checksTotal: 40, findings: 0, message: 'Fetching https://x.example/' },
    { phase: 'crawl', pagesDone: 4, pagesTotal: 10, checksRun: 0, checksTotal: 40, findings: 0 },
    { phase: 'check', pagesDone: 10, pagesTotal: 10, checksRun: 12, checksTotal: 40, findings: 3 },
  ];

  it('shows progress as plain lines per phase on stderr when it is not a terminal', async () => {
    const h = harness({ progress });
    await runScanCommand(['https://x.example'], h.deps);
    expect(h.stderr.text).toBe('[1.5s] Crawling: Fetching https://x.example/\n[4.5s] Checking\n');
    expect(h.stderr.text).not.toContain('\r');
  });

  it('shows progress as one updating line on a terminal, cleared before the summary', async () => {
    const h = harness({ progress, tty: true });
    await runScanCommand(['https://x.example'], h.deps);
    const frames = h.stderr.text.split('\r\x1b[2K');
    expect(frames).toEqual([
      '',
      'Crawling · pages 0/10 · checks 0/40 · 0 findings · 1.5s · Fetching https://x.example/',
      'Crawling · pages 4/10 · checks 0/40 · 0 findings · 3.0s',
      'Checking · pages 10/10 · checks 12/40 · 3 findings · 4.5s',
      '',
    ]);
  });
});

describe('terminal output', () => {
  it('strips control characters a scanned site could use to rewrite the terminal', () => {
    expect(terminalSafe('ok\x1b[2J\x1b]0;pwned\x07 title\r\nnext\u202e')).toBe('ok[2J]0;pwned title next');
  });

  it('keeps hostile titles out of the summary as escapes', () => {
    const sample = loadSampleResult();
    const text = formatSummary({ ...sample, findings: [{ ...sample.findings[0]!, title: '\x1b[31mred\x1b[0m' }] }, { failOn: 'high' });
    expect(text).not.toContain('\x1b');
    expect(text).toContain('[31mred[0m');
  });

  it('says what could not be checked, and never calls an unchecked site secure', () => {
    const sample = loadSampleResult();
    const text = formatSummary({ ...sample, coverage: sampleCoverage() }, { failOn: 'high' });
    expect(text).toContain('  Coverage   4 pages and 12 scripts (1 without an answer) fetched; 3 pages rendered in a browser; 2 backends found, 1 checked; 1 check skipped\n');
    expect(text).toContain(
      'Not checked:\n  - The Supabase project https://abcdefghijklmnopqrst.supabase.co could not be checked: every request failed (6 requests): abcdefghijklmnopqrst.supabase.co refused the connection. Its data was not tested.\n',
    );
    expect(text).toContain('  - 5 pages need a login and were not checked signed in: https://example.com/dashboard?<b>x</b> and 4 more.');
    const empty = { ...sample, findings: [], coverage: sampleCoverage() };
    expect(formatSummary(empty, { failOn: 'high' })).toContain('No issues found in what could be checked, but not everything could be checked (see "Not checked" above).');
    expect(formatSummary(empty, { failOn: 'high' })).not.toContain('Application Configuration Secure');
    expect(formatSummary({ ...sample, findings: [] }, { failOn: 'high' })).toContain('No issues found: Application Configuration Secure.');
  });

  it('colours severities only when asked', () => {
    const sample = loadSampleResult();
    expect(formatSummary(sample, { failOn: 'high', colour: true })).toContain('\x1b[1;31mCritical');
    expect(formatSummary(sample, { failOn: 'high' })).not.toContain('\x1b');
  });

  it('counts failing findings per threshold', () => {
    const sample = loadSampleResult();
    expect(['critical', 'high', 'medium', 'low', 'none'].map((l) => failingFindings(sample, l as never))).toEqual([2, 4, 7, 9, 0]);
  });

  it('truncates the progress line to the terminal width', () => {
    const stream = new Capture(true, 30);
    const reporter = createProgressReporter(stream, () => 0);
    reporter.update({ phase: 'render', pagesDone: 1, pagesTotal: 5, checksRun: 0, checksTotal: 40, findings: 0, message: 'x'.repeat(100) });
    expect(stream.text.replace('\r\x1b[2K', '')).toHaveLength(29);
  });
});

// End to end: the built command (npm run build) against a local site without security headers.
const CLI = join(__dirname, '..', '..', 'out', 'main', 'cli.js');
if (!existsSync(CLI)) console.log(`Skipping the end-to-end scan test: ${CLI} is missing (run npm run build)`);

describe.skipIf(!existsSync(CLI))('vibeeval scan, end to end', () => {
  let server: Server;
  let origin: string;
  let dir: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Local app</title><a href="/about">About</a>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = mkdtempSync(join(tmpdir(), 'vibeeval-cli-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('scans a loopback site, writes the report and exits 1 on findings at or above --fail-on', async () => {
    const out = join(dir, 'report.json');
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(__dirname, '..', '..', 'bin', 'vibeeval.cjs'), 'scan', `${origin}/`, '--no-render', '--rate', '0', '--pages', '2', '--fail-on', 'low', '--out', out],
        { timeout: 60_000 },
        (error, stdout) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout }),
      );
    });
    expect(stdout).toContain(`vibeeval scan of ${origin}/`);
    expect(stdout).toContain(`Report written to ${out} (json)`);
    const report = scanResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(report.target.finalUrl).toBe(`${origin}/`);
    expect(report.findings.length).toBeGreaterThan(0);
    expect(code).toBe(EXIT.findings);
  });
});

describe('test accounts (--accounts FILE, VIBEEVAL_SCAN_ACCOUNTS)', () => {
  const PASSWORDS = ['S3cret!pw', 'P4ss two'];
  const FILE = '# staging users\nalice@example.com S3cret!pw\n\nbob P4ss two\n';
  const withFiles = (h: Harness, files: Record<string, string>) => {
    h.deps.readFile = async (path) => {
      if (path in files) return files[path]!;
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
    };
    return h;
  };
  const noPassword = (h: Harness) => {
    for (const password of [...PASSWORDS, 'Th1rd-pw', 'lonely-Secret']) expect(h.stdout.text + h.stderr.text).not.toContain(password);
  };

  it('parses --accounts', () => {
    const parsed = parseScanArgs(['https://example.com', '--accounts', 'users.txt']);
    expect(parsed.kind === 'run' && parsed.options.accountsFile).toBe('users.txt');
    expect(parseScanArgs(['https://example.com', '--accounts='])).toEqual({ kind: 'error', message: '--accounts needs a file name' });
  });

  it('gives the file accounts to the scan in its hooks, never in its options', async () => {
    const h = withFiles(harness({ result: clean() }), { 'users.txt': FILE });
    h.deps.env = { VIBEEVAL_SCAN_ACCOUNTS: 'env@example.com other' };
    expect(await runScanCommand(['https://example.com', '--accounts', 'users.txt'], h.deps)).toBe(EXIT.ok);
    expect(h.calls[0]!.hooks.accounts).toEqual([
      { login: 'alice@example.com', password: 'S3cret!pw' },
      { login: 'bob', password: 'P4ss two' },
    ]);
    expect(JSON.stringify(h.calls[0]!.options)).not.toContain('S3cret');
    noPassword(h);
  });

  it('takes VIBEEVAL_SCAN_ACCOUNTS when --accounts is absent, and no accounts when neither is set', async () => {
    const h = harness({ result: clean() });
    h.deps.env = { VIBEEVAL_SCAN_ACCOUNTS: 'alice@example.com S3cret!pw\nbob P4ss two' };
    await runScanCommand(['https://example.com'], h.deps);
    expect(h.calls[0]!.hooks.accounts?.map((a) => a.login)).toEqual(['alice@example.com', 'bob']);
    const none = harness({ result: clean() });
    await runScanCommand(['https://example.com'], none.deps);
    expect(none.calls[0]!.hooks.accounts).toBeUndefined();
  });

  it.each([
    ['a line without a password', 'alice@example.com S3cret!pw\nlonely-Secret\n', /users\.txt, line 2: cannot read an account/],
    ['a third account', `${FILE}carol@example.com Th1rd-pw\n`, /users\.txt, line 5: a third account/],
    ['no account at all', '# nobody yet\n', /users\.txt holds no account/],
  ])('exits 2 without scanning on %s, naming the line and never a password', async (_what, content, message) => {
    const h = withFiles(harness(), { 'users.txt': content });
    expect(await runScanCommand(['https://example.com', '--accounts', 'users.txt'], h.deps)).toBe(EXIT.usage);
    expect(h.stderr.text).toMatch(message);
    expect(h.calls).toHaveLength(0);
    noPassword(h);
  });

  it('exits 2 naming the variable and the line when VIBEEVAL_SCAN_ACCOUNTS is bad', async () => {
    const h = harness();
    h.deps.env = { VIBEEVAL_SCAN_ACCOUNTS: 'lonely-Secret' };
    expect(await runScanCommand(['https://example.com'], h.deps)).toBe(EXIT.usage);
    expect(h.stderr.text).toContain('VIBEEVAL_SCAN_ACCOUNTS, line 1: cannot read an account');
    noPassword(h);
  });

  it('exits 2 naming the path when the file cannot be read', async () => {
    const h = withFiles(harness(), {});
    expect(await runScanCommand(['https://example.com', '--accounts', '/nowhere/users.txt'], h.deps)).toBe(EXIT.usage);
    expect(h.stderr.text).toBe('vibeeval scan: cannot read the accounts file /nowhere/users.txt (ENOENT)\n');
  });

  it('prints how the scan signed in as each account, and why not', async () => {
    const result: ScanResult = {
      ...clean(),
      coverage: {
        ...(clean().coverage ?? { checksSkipped: [] }),
        signIns: [
          { account: 'alice@example.com', signedIn: true, method: 'supabase' },
          { account: 'bob', signedIn: false, reason: 'the site answered 400: invalid login credentials' },
        ],
      },
    };
    const h = withFiles(harness({ result }), { 'users.txt': FILE });
    await runScanCommand(['https://example.com', '--accounts', 'users.txt'], h.deps);
    expect(h.stdout.text).toContain('  Sign-ins   Signed in as alice@example.com with Supabase Auth\n');
    expect(h.stdout.text).toContain('             Could not sign in as bob: the site answered 400: invalid login credentials\n');
    noPassword(h);
  });

  it('prints the throwaway account an active scan created, by its address, so it can be deleted', async () => {
    const result: ScanResult = {
      ...clean(),
      coverage: {
        ...(clean().coverage ?? { checksSkipped: [] }),
        signIns: [
          { account: 'alice@example.com', signedIn: true, method: 'supabase' },
          {
            account: 'vibeeval-0a1b2c3d4e5f@example.com',
            signedIn: true,
            method: 'supabase',
            throwaway: true,
            reason: 'created on https://abc.supabase.co, where anyone can sign up; delete it in the Supabase dashboard (Authentication > Users).',
          },
        ],
      },
    };
    expect(scanResultSchema.parse(result).coverage?.signIns).toHaveLength(2);
    const h = withFiles(harness({ result }), { 'users.txt': FILE });
    await runScanCommand(['https://example.com', '--active', '--accounts', 'users.txt'], h.deps);
    expect(h.calls[0]!.options).toMatchObject({ active: true });
    expect(h.stdout.text).toContain(
      '             Signed up and signed in as vibeeval-0a1b2c3d4e5f@example.com, a throwaway account the scan created: created on https://abc.supabase.co, where anyone can sign up; delete it in the Supabase dashboard (Authentication > Users).\n',
    );
    noPassword(h);
  });

  it('prints why an active scan created no throwaway account, with no test account given', async () => {
    const result: ScanResult = {
      ...clean(),
      coverage: {
        ...(clean().coverage ?? { checksSkipped: [] }),
        signIns: [
          {
            account: 'throwaway account (not created)',
            signedIn: false,
            throwaway: true,
            reason: 'Sign-up is closed on https://abc.supabase.co (disable_signup is on), so a stranger cannot get an account.',
          },
        ],
      },
    };
    const h = harness({ result });
    await runScanCommand(['https://example.com', '--active'], h.deps);
    expect(h.stdout.text).toContain('  Sign-ins   No throwaway account signed in: Sign-up is closed on https://abc.supabase.co (disable_signup is on)');
  });

  it('says when the scan reported no sign-in for the given accounts', async () => {
    const h = withFiles(harness({ result: clean() }), { 'users.txt': FILE });
    await runScanCommand(['https://example.com', '--accounts', 'users.txt'], h.deps);
    expect(h.stdout.text).toContain('  Sign-ins   none reported for the 2 test accounts given');
  });
});

describe('vibeeval scan --accounts, spawned', () => {
  const SOURCE = join(__dirname, '..', 'cli.ts');
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vibeeval-accounts-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The command from source (no build needed); port 9 is never scanned: bad accounts stop it first. */
  const run = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', SOURCE, 'scan', 'http://127.0.0.1:9/', ...args],
        { timeout: 60_000, cwd: join(__dirname, '..', '..'), env: { ...process.env, VIBEEVAL_SCAN_ACCOUNTS: '', ...env } },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, out: stdout + stderr }),
      );
    });

  it('exits 2 on a bad line of the file or the variable, naming the line and never the password', async () => {
    const file = join(dir, 'users.txt');
    writeFileSync(file, 'alice@example.com S3cret!pw\nlonely-Secret\n');
    const fromFile = await run(['--accounts', file]);
    expect(fromFile.code).toBe(EXIT.usage);
    expect(fromFile.out).toContain(`${file}, line 2: cannot read an account`);
    const fromEnv = await run([], { VIBEEVAL_SCAN_ACCOUNTS: 'a@example.com S3cret!pw\nb@example.com P4ss\nc@example.com Th1rd-pw' });
    expect(fromEnv.code).toBe(EXIT.usage);
    expect(fromEnv.out).toContain('VIBEEVAL_SCAN_ACCOUNTS, line 3: a third account');
    for (const out of [fromFile.out, fromEnv.out]) for (const secret of ['S3cret', 'lonely-Secret', 'P4ss', 'Th1rd']) expect(out).not.toContain(secret);
  }, 120_000);

  it('exits 2 naming the path of a file it cannot read', async () => {
    const missing = join(dir, 'missing.txt');
    const { code, out } = await run(['--accounts', missing]);
    expect(code).toBe(EXIT.usage);
    expect(out).toContain(`cannot read the accounts file ${missing} (ENOENT)`);
  }, 60_000);
});

describe('triage decisions (--baseline FILE)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vibeeval-baseline-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sample = loadSampleResult();
  const severe = sample.findings.filter((f) => f.severity === 'critical' || f.severity === 'high');
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return path;
  };
  const entry = (fingerprint: string, extra: Record<string, unknown> = {}) => ({
    fingerprint,
    decision: 'false_positive',
    reason: 'Reviewed: test data',
    expires_at: null,
    ...extra,
  });

  it('leaves decided findings out of --fail-on, the summary and the counts, and lists them in the report', async () => {
    const baseline = file(
      'all-severe.json',
      severe.map((f, i) => entry(f.fingerprint, i === 0 ? { decision: 'accepted_risk', expires_at: '2099-12-31' } : {})),
    );
    expect(await runScanCommand(['https://example.com'], harness().deps)).toBe(EXIT.findings);
    const h = harness();
    expect(await runScanCommand(['https://example.com', '--baseline', baseline, '--out', 'scan.sarif'], h.deps)).toBe(EXIT.ok);
    expect(h.stdout.text).toContain(`Suppressed: ${severe.length} by the baseline`);
    expect(h.stdout.text).toContain('Result: passed: nothing at or above high');
    expect(h.stdout.text).toMatch(/Findings {3}0 critical, 0 high, 3 medium/);
    const sarif = JSON.parse(String(h.files.get('scan.sarif'))) as { runs: Array<{ results: Array<{ suppressions?: Array<{ justification: string }> }> }> };
    const suppressed = sarif.runs[0]!.results.filter((r) => r.suppressions);
    expect(suppressed).toHaveLength(severe.length);
    expect(suppressed.map((r) => r.suppressions![0]!.justification)).toContain('Accepted risk: Reviewed: test data');
  });

  it('applies an accepted risk only until it expires', async () => {
    const baseline = file(
      'expired.json',
      severe.map((f) => entry(f.fingerprint, { decision: 'accepted_risk', expires_at: '2021-06-30' })),
    );
    const h = harness();
    expect(await runScanCommand(['https://example.com', '--baseline', baseline], h.deps)).toBe(EXIT.findings);
    expect(h.stdout.text).not.toContain('Suppressed');
  });

  it.each([
    [
      'a missing reason',
      [entry('aaaaaaaaaaaaaaaa'), entry('bbbbbbbbbbbbbbbb'), { fingerprint: 'cccccccccccccccc', decision: 'false_positive' }],
      'baseline entry 3: reason is required',
    ],
    ['an empty reason', [{ ...entry('aaaaaaaaaaaaaaaa'), reason: '  ' }], 'baseline entry 1: reason is required'],
    ['an unknown decision', [entry('aaaaaaaaaaaaaaaa', { decision: 'wontfix' })], 'baseline entry 1: decision: must be false_positive or accepted_risk'],
    ['a bad fingerprint', [entry('aaaaaaaaaaaaaaaa'), entry('XYZ')], 'baseline entry 2: fingerprint: must be a finding fingerprint'],
    ['no fingerprint', [{ decision: 'false_positive', reason: 'x' }], 'baseline entry 1: fingerprint is required'],
    ['a bad date', [entry('aaaaaaaaaaaaaaaa', { decision: 'accepted_risk', expires_at: 'next week' })], 'baseline entry 1: expires_at: must be a date such as 2027-01-31'],
    ['an expiring false positive', [entry('aaaaaaaaaaaaaaaa', { expires_at: '2099-01-01' })], 'baseline entry 1: expires_at: only an accepted risk expires'],
    ['an unknown field', [{ ...entry('aaaaaaaaaaaaaaaa'), severity: 'low' }], "baseline entry 1: unknown field 'severity'"],
    ['an entry that is not an object', [entry('aaaaaaaaaaaaaaaa'), 'aaaaaaaaaaaaaaaa'], 'baseline entry 2: must be an object with fingerprint, decision and reason'],
    [
      'the same fingerprint twice',
      [entry('aaaaaaaaaaaaaaaa'), entry('bbbbbbbbbbbbbbbb'), entry('aaaaaaaaaaaaaaaa')],
      'baseline entry 3: fingerprint aaaaaaaaaaaaaaaa is already decided in entry 1',
    ],
    ['an object instead of a list', { decisions: [] }, 'the baseline must be a JSON array of decisions'],
    ['text that is not JSON', '[{"fingerprint": ', 'the baseline is not JSON'],
  ])('exits 2 without scanning on %s, naming the entry', async (what, content, message) => {
    const path = file(`${what.replace(/\W+/g, '-')}.json`, content);
    const h = harness();
    expect(await runScanCommand(['https://example.com', '--baseline', path], h.deps)).toBe(EXIT.usage);
    expect(h.stderr.text).toContain(`vibeeval scan: ${path}: ${message}`);
    expect(h.calls).toHaveLength(0);
  });

  it('exits 2 naming the path of a baseline it cannot read, and refuses an empty --baseline', async () => {
    const missing = join(dir, 'missing.json');
    const h = harness();
    expect(await runScanCommand(['https://example.com', '--baseline', missing], h.deps)).toBe(EXIT.usage);
    expect(h.stderr.text).toBe(`vibeeval scan: cannot read the baseline file ${missing} (ENOENT)\n`);
    expect(parseScanArgs(['https://example.com', '--baseline='])).toEqual({ kind: 'error', message: '--baseline needs a file name' });
  });
});

describe('vibeeval scan --baseline, spawned against a local site', () => {
  const SOURCE = join(__dirname, '..', 'cli.ts');
  let dir: string;
  let site: Server;
  let siteUrl: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vibeeval-baseline-run-'));
    // A page without any security header: the scan finds something on it every time.
    site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Shop</title><p>Shop</p>'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  const run = (args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', SOURCE, 'scan', siteUrl, '--no-render', '--pages', '1', '--rate', '0', ...args],
        { timeout: 120_000, cwd: join(__dirname, '..', '..'), env: { ...process.env, VIBEEVAL_SCAN_ACCOUNTS: '' } },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, out: stdout + stderr }),
      );
    });

  it('fails on the findings, then passes with a baseline of their fingerprints, which the JSON report lists apart', async () => {
    const first = join(dir, 'first.json');
    const before = await run(['--fail-on', 'low', '--out', first]);
    expect(before.code, before.out).toBe(EXIT.findings);
    const found = scanResultSchema.parse(JSON.parse(readFileSync(first, 'utf8'))).findings;
    expect(found.length).toBeGreaterThan(0);
    const baseline = join(dir, 'baseline.json');
    writeFileSync(baseline, JSON.stringify(found.map((f) => ({ fingerprint: f.fingerprint, decision: 'accepted_risk', reason: 'Local test site', expires_at: null }))));
    const second = join(dir, 'second.json');
    const after = await run(['--fail-on', 'low', '--baseline', baseline, '--out', second]);
    expect(after.code, after.out).toBe(EXIT.ok);
    const result = scanResultSchema.parse(JSON.parse(readFileSync(second, 'utf8')));
    expect(result.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(result.suppressed!.map((f) => f.fingerprint).sort()).toEqual(found.map((f) => f.fingerprint).sort());
  }, 240_000);
});

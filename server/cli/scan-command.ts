import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { describeSignIn, parseScanAccounts, type ScanAccount } from '../../common/scan-accounts';
import { SEVERITIES, SEVERITY_RANK, type ScanOptions, type ScanProgress, type ScanResult, type Severity } from '../../common/scan';
import { coverageFacts, coverageGaps, coverageIncomplete } from '../../common/scan-coverage';
import { PdfBrowserMissingError, REPORT_FORMATS, formatFromFileName, isReportFormat, renderReport, type ReportFormat } from '../../engine/report/index';
import { SEVERITY_LABELS, formatDuration, sortFindings } from '../../engine/report/format';
import { ScanError, type ScanHooks } from '../../engine/scan';
import { parseBaseline, type BaselineEntry } from '../../common/triage';
import { applySuppressions } from '../../engine/triage';

/** Exit codes of `vibeeval scan`. */
export const EXIT = {
  /** No finding at or above --fail-on. */
  ok: 0,
  /** At least one finding at or above --fail-on. */
  findings: 1,
  /** Bad usage, or the site could not be scanned (invalid URL, unreachable, refused address, report not written). */
  usage: 2,
  /** Stopped with Ctrl-C (128 + SIGINT). */
  interrupted: 130,
} as const;

export const FAIL_ON_LEVELS = ['critical', 'high', 'medium', 'low', 'none'] as const;
export type FailOn = (typeof FAIL_ON_LEVELS)[number];
/** High: a CI job fails on what needs fixing before release, not on hardening advice. */
export const DEFAULT_FAIL_ON: FailOn = 'high';
const MAX_PAGES = 10_000;
const TOP_FINDINGS = 10;

export const SCAN_USAGE_LINE =
  'Usage: vibeeval scan <url> [--pages N] [--format FORMAT] [--out FILE] [--fail-on LEVEL] [--active] [--no-render] [--rate N] [--accounts FILE] [--baseline FILE]';

export const SCAN_USAGE = `${SCAN_USAGE_LINE}

Scans a website for security issues and prints a summary, or writes a report.
Private and local addresses (localhost, 192.168.x.x) may be scanned from the command line.

Options:
  --pages N          Crawl at most N pages (default 10)
  --format FORMAT    Report format: ${REPORT_FORMATS.join(', ')}. Without --out the report goes to
                     stdout (pdf needs --out) and the summary to stderr
  -o, --out FILE     Write the report to FILE; the format comes from --format or the file extension
                     (.html, .pdf, .csv, .json, .sarif)
  --fail-on LEVEL    Exit with 1 when a finding is at or above LEVEL: critical, high, medium, low,
                     or none to never fail (default ${DEFAULT_FAIL_ON})
  --active           Also send probes that could change data; only on sites you own. Where the
                     site's Supabase project lets anyone sign up, creates one throwaway account
                     (vibeeval-…@example.com, named in the summary so you can delete it)
  --no-render        Do not load pages in a headless browser (faster; misses client-side routes)
  --rate N           At most N requests per second per host; 0 for no limit. Without it the scan keeps
                     at most 4 requests in flight per host and slows down when the site answers 429
  --accounts FILE    Sign in as the test accounts in FILE: one per line, the email or user name, a space,
                     then the password (the rest of the line); at most 2; blank and # lines are skipped
  --baseline FILE    Apply the triage decisions in FILE (JSON, as the dashboard's Export baseline and
                     GET /v1/projects/{id}/baseline give it): findings marked false positive or accepted
                     risk (until it expires) leave the score, the counts and --fail-on, and reports list
                     them apart
  -h, --help         Show this help

Exit codes: 0 nothing at or above --fail-on, 1 something is, 2 bad usage or the site could not be
scanned, 130 interrupted.
Environment: VIBEEVAL_CHROMIUM, the Chromium, Chrome or Edge used for rendering and PDF reports;
VIBEEVAL_SCAN_ACCOUNTS, the test accounts (newline-separated, as in FILE) when --accounts is not given.`;

export interface ScanCommandOptions {
  url: string;
  scanOptions: Partial<ScanOptions>;
  /** Report format, when a report is asked for. */
  format: ReportFormat | null;
  out: string | null;
  failOn: FailOn;
  /** The file of test accounts (--accounts), read when the command runs. */
  accountsFile: string | null;
  /** The file of triage decisions (--baseline), read when the command runs. */
  baselineFile: string | null;
}

export type ParsedScanArgs = { kind: 'help' } | { kind: 'run'; options: ScanCommandOptions } | { kind: 'error'; message: string };

/** Parses `vibeeval scan` arguments (node:util parseArgs, strict); never throws. */
export function parseScanArgs(argv: readonly string[]): ParsedScanArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        pages: { type: 'string' },
        format: { type: 'string' },
        out: { type: 'string', short: 'o' },
        'fail-on': { type: 'string' },
        active: { type: 'boolean' },
        'no-render': { type: 'boolean' },
        rate: { type: 'string' },
        accounts: { type: 'string' },
        baseline: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    const { code, message } = error as Error & { code?: string };
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'([^']+)'/.exec(message)?.[1] ?? message;
      return { kind: 'error', message: `unknown option '${option}'` };
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /ambiguous/.test(message)) {
      // `--rate -1`: parseArgs will not take a value that looks like an option.
      const option = /'([^']+)'/.exec(message)?.[1] ?? 'the option';
      const next = argv[argv.indexOf(option) + 1] ?? '-X';
      return { kind: 'error', message: `option '${option}' needs a value; write ${option}=${next} for a value that starts with a dash` };
    }
    // e.g. "Option '--pages <value>' argument missing": the first line, without its full stop.
    return {
      kind: 'error',
      message: message
        .split('\n')[0]!
        .replace(/^Option/, 'option')
        .replace(/\.$/, ''),
    };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };

  if (positionals.length === 0) return { kind: 'error', message: 'missing the URL to scan' };
  if (positionals.length > 1) return { kind: 'error', message: `one URL at a time (got ${positionals.map((p) => `'${p}'`).join(', ')})` };

  const scanOptions: Partial<ScanOptions> = {};
  if (values.pages !== undefined) {
    const pages = /^\d+$/.test(values.pages) ? Number(values.pages) : NaN;
    if (!Number.isSafeInteger(pages) || pages < 1 || pages > MAX_PAGES) {
      return { kind: 'error', message: `--pages must be a whole number from 1 to ${MAX_PAGES}, not '${values.pages}'` };
    }
    scanOptions.maxPages = pages;
  }
  if (values.rate !== undefined) {
    const rate = /^\d+(\.\d+)?$/.test(values.rate) ? Number(values.rate) : NaN;
    if (!Number.isFinite(rate)) return { kind: 'error', message: `--rate must be a number of requests per second, 0 or more, not '${values.rate}'` };
    scanOptions.rateLimit = rate;
  }
  if (values.active) scanOptions.active = true;
  if (values['no-render']) scanOptions.render = false;

  const failOn = (values['fail-on'] ?? DEFAULT_FAIL_ON) as FailOn;
  if (!FAIL_ON_LEVELS.includes(failOn)) {
    return { kind: 'error', message: `--fail-on must be one of ${FAIL_ON_LEVELS.join(', ')}, not '${values['fail-on']}'` };
  }

  let format: ReportFormat | null = null;
  if (values.format !== undefined) {
    const wanted = values.format.toLowerCase();
    if (!isReportFormat(wanted)) return { kind: 'error', message: `--format must be one of ${REPORT_FORMATS.join(', ')}, not '${values.format}'` };
    format = wanted;
  }
  const out = values.out ?? null;
  if (out !== null && out.trim() === '') return { kind: 'error', message: '--out needs a file name' };
  if (out !== null && format === null) {
    format = formatFromFileName(out);
    if (format === null) return { kind: 'error', message: `cannot tell the report format from '${out}': add --format (${REPORT_FORMATS.join(', ')})` };
  }
  if (format === 'pdf' && out === null) return { kind: 'error', message: '--format pdf needs --out FILE (a PDF is not written to the terminal)' };
  const accountsFile = values.accounts ?? null;
  if (accountsFile !== null && accountsFile.trim() === '') return { kind: 'error', message: '--accounts needs a file name' };

  const baselineFile = values.baseline ?? null;
  if (baselineFile !== null && baselineFile.trim() === '') return { kind: 'error', message: '--baseline needs a file name' };

  return { kind: 'run', options: { url: positionals[0]!, scanOptions, format, out, failOn, accountsFile, baselineFile } };
}

/** The findings that make the command fail. */
export function failingFindings(result: ScanResult, failOn: FailOn): number {
  if (failOn === 'none') return 0;
  return result.findings.filter((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK[failOn]).length;
}

/** Removes control characters (ANSI escapes included) from site-controlled text before it reaches a terminal. */
export function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\r\n\t]+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
}

export interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const PHASES: Record<ScanProgress['phase'], string> = {
  crawl: 'Crawling',
  render: 'Rendering',
  probe: 'Probing',
  check: 'Checking',
  done: 'Finishing',
};

/** Progress on stderr: one line rewritten in place on a terminal, one plain line per phase otherwise (CI logs). */
export function createProgressReporter(stream: OutputStream, now: () => number) {
  const start = now();
  const tty = Boolean(stream.isTTY);
  let lastPhase: ScanProgress['phase'] | null = null;
  let drawn = false;
  const elapsed = () => `${((now() - start) / 1000).toFixed(1)}s`;
  return {
    update(progress: ScanProgress): void {
      const parts = [
        PHASES[progress.phase],
        `pages ${progress.pagesDone}/${progress.pagesTotal}`,
        `checks ${progress.checksRun}/${progress.checksTotal}`,
        `${progress.findings} finding${progress.findings === 1 ? '' : 's'}`,
        elapsed(),
      ];
      if (tty) {
        let line = parts.join(' · ');
        if (progress.message) line += ` · ${terminalSafe(progress.message)}`;
        // A pseudo-terminal without a size reports 0 columns.
        const width = Math.max(20, (stream.columns || 80) - 1);
        if (line.length > width) line = `${line.slice(0, width - 1)}…`;
        stream.write(`\r\x1b[2K${line}`);
        drawn = true;
      } else if (progress.phase !== lastPhase) {
        stream.write(`[${elapsed()}] ${PHASES[progress.phase]}${progress.message ? `: ${terminalSafe(progress.message)}` : ''}\n`);
      }
      lastPhase = progress.phase;
    },
    /** Clears the progress line so what follows starts on a clean line. */
    finish(): void {
      if (tty && drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

const COLOURS: Record<Severity, string> = { critical: '1;31', high: '31', medium: '33', low: '34', info: '2' };

/** The human summary: target, score, header grade, counts, top findings, where the report went, the verdict. */
export function formatSummary(
  result: ScanResult,
  options: { failOn: FailOn; reportPath?: string | null; format?: ReportFormat | null; colour?: boolean; accountsGiven?: number },
): string {
  const paint = (code: string, text: string) => (options.colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const f of result.findings) counts[f.severity]++;
  const rendering =
    result.rendering.status === 'done'
      ? 'rendered in a browser'
      : `rendering ${result.rendering.status}${result.rendering.reason ? ` (${terminalSafe(result.rendering.reason)})` : ''}`;
  const lines = [
    `vibeeval scan of ${terminalSafe(result.target.finalUrl || result.target.url)}`,
    `  Score      ${result.score}/100, grade ${result.grade}`,
    `  Headers    grade ${result.headers.grade} (${result.headers.score} points, HTTP Observatory-compatible)`,
    `  Findings   ${SEVERITIES.map((s) => (counts[s] ? paint(COLOURS[s], `${counts[s]} ${s}`) : `0 ${s}`)).join(', ')}`,
    `  Pages      ${result.pages.length} scanned in ${formatDuration(result.durationMs)}; ${rendering}`,
  ];
  const facts = result.coverage ? coverageFacts(result.coverage) : '';
  if (facts) lines.push(`  Coverage   ${terminalSafe(facts)}`);
  lines.push(...signInLines(result, options.accountsGiven ?? 0));
  const gaps = coverageGaps(result.coverage);
  if (gaps.length) {
    lines.push('', paint('33', 'Not checked:'));
    for (const gap of gaps) lines.push(`  - ${terminalSafe(gap)}`);
  }
  const top = sortFindings(result.findings).slice(0, TOP_FINDINGS);
  if (top.length) {
    lines.push('', 'Top findings:');
    const width = Math.max(...top.map((f) => SEVERITY_LABELS[f.severity].length));
    for (const f of top) {
      const label = SEVERITY_LABELS[f.severity].padEnd(width);
      lines.push(`  ${paint(COLOURS[f.severity], label)}  ${terminalSafe(f.title)}`, `  ${' '.repeat(width)}  ${terminalSafe(f.url)}`);
    }
    if (result.findings.length > top.length) {
      lines.push(`  … and ${result.findings.length - top.length} more${options.reportPath ? '' : ' (write them all with --out report.html)'}`);
    }
  } else {
    lines.push(
      '',
      coverageIncomplete(result.coverage)
        ? 'No issues found in what could be checked, but not everything could be checked (see "Not checked" above).'
        : 'No issues found: Application Configuration Secure.',
    );
  }
  const suppressed = result.suppressed?.length ?? 0;
  if (suppressed) lines.push('', `Suppressed: ${suppressed} by the baseline (false positive or accepted risk), left out of the score and --fail-on.`);
  if (result.warnings.length) lines.push('', `${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'} (see the report).`);
  if (options.reportPath) lines.push('', `Report written to ${options.reportPath}${options.format ? ` (${options.format})` : ''}`);
  const failing = failingFindings(result, options.failOn);
  lines.push(
    '',
    options.failOn === 'none'
      ? 'Result: passed (--fail-on none)'
      : failing
        ? paint('1;31', `Result: failed: ${failing} finding${failing === 1 ? '' : 's'} at or above ${options.failOn}`)
        : `Result: passed: nothing at or above ${options.failOn}`,
  );
  return `${lines.join('\n')}\n`;
}

/** The summary's sign-in lines: how the scan signed in as each given account (logins only, never a password). */
function signInLines(result: ScanResult, accountsGiven: number): string[] {
  const signIns = result.coverage?.signIns ?? [];
  if (signIns.length === 0) {
    return accountsGiven ? [`  Sign-ins   none reported for the ${accountsGiven} test account${accountsGiven === 1 ? '' : 's'} given`] : [];
  }
  return signIns.map((outcome, index) => `  ${index === 0 ? 'Sign-ins ' : '         '}  ${terminalSafe(describeSignIn(outcome))}`);
}

/** The test accounts of --accounts FILE, else of VIBEEVAL_SCAN_ACCOUNTS; an error names the file or variable and the line. */
export async function loadScanAccounts(
  accountsFile: string | null,
  deps: Pick<ScanCommandDeps, 'readFile' | 'env'>,
): Promise<{ ok: true; accounts: ScanAccount[] } | { ok: false; message: string }> {
  let text: string;
  let source: string;
  if (accountsFile !== null) {
    source = accountsFile;
    try {
      text = await (deps.readFile ?? ((path: string) => readFile(path, 'utf8')))(accountsFile);
    } catch (error) {
      // The code only (ENOENT, EACCES): the path is named here, and no part of the file is read back.
      const code = (error as NodeJS.ErrnoException).code;
      return { ok: false, message: `cannot read the accounts file ${accountsFile}${code ? ` (${code})` : ''}` };
    }
  } else {
    source = 'VIBEEVAL_SCAN_ACCOUNTS';
    text = deps.env?.VIBEEVAL_SCAN_ACCOUNTS ?? '';
    if (!text.trim()) return { ok: true, accounts: [] };
  }
  const parsed = parseScanAccounts(text, 'file');
  if (!parsed.ok) return { ok: false, message: `${source}, ${parsed.message}` };
  if (parsed.accounts.length === 0) return { ok: false, message: `${source} holds no account (one per line: the email or user name, a space, the password)` };
  return parsed;
}

/** The decisions of --baseline FILE (none without it); an error names the file and the entry. */
export async function loadBaseline(
  baselineFile: string | null,
  deps: Pick<ScanCommandDeps, 'readFile'>,
): Promise<{ ok: true; entries: BaselineEntry[] } | { ok: false; message: string }> {
  if (baselineFile === null) return { ok: true, entries: [] };
  let text: string;
  try {
    text = await (deps.readFile ?? ((path: string) => readFile(path, 'utf8')))(baselineFile);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, message: `cannot read the baseline file ${baselineFile}${code ? ` (${code})` : ''}` };
  }
  const parsed = parseBaseline(text);
  return parsed.ok ? parsed : { ok: false, message: `${baselineFile}: ${parsed.message}` };
}

export interface ScanCommandDeps {
  /** The engine's scan(), injected so tests can run the command without a network. */
  scan: (url: string, options: Partial<ScanOptions>, hooks: ScanHooks) => Promise<ScanResult>;
  render?: (result: ScanResult, format: ReportFormat) => Promise<Buffer | string>;
  writeFile: (path: string, data: Buffer | string) => Promise<void>;
  stdout: OutputStream;
  stderr: OutputStream;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal;
  now?: () => number;
  /** Colour in the summary (a terminal without NO_COLOR). */
  colour?: boolean;
  /** Reads the --accounts and --baseline files (defaults to the file system). */
  readFile?: (path: string) => Promise<string>;
  /** The environment (VIBEEVAL_SCAN_ACCOUNTS); none when absent. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Runs `vibeeval scan <args>` and returns the exit code; all output goes through deps. */
export async function runScanCommand(argv: readonly string[], deps: ScanCommandDeps): Promise<number> {
  const parsed = parseScanArgs(argv);
  if (parsed.kind === 'help') {
    deps.stdout.write(`${SCAN_USAGE}\n`);
    return EXIT.ok;
  }
  if (parsed.kind === 'error') {
    deps.stderr.write(`vibeeval scan: ${parsed.message}\n${SCAN_USAGE_LINE}\nRun 'vibeeval scan --help' for details.\n`);
    return EXIT.usage;
  }
  const { url, scanOptions, format, out, failOn, accountsFile, baselineFile } = parsed.options;
  const loaded = await loadScanAccounts(accountsFile, deps);
  if (!loaded.ok) {
    deps.stderr.write(`vibeeval scan: ${terminalSafe(loaded.message)}\n`);
    return EXIT.usage;
  }
  const baseline = await loadBaseline(baselineFile, deps);
  if (!baseline.ok) {
    deps.stderr.write(`vibeeval scan: ${terminalSafe(baseline.message)}\n`);
    return EXIT.usage;
  }
  const accounts = loaded.accounts;
  const render = deps.render ?? ((result: ScanResult, f: ReportFormat) => renderReport(result, f));
  const progress = createProgressReporter(deps.stderr, deps.now ?? Date.now);

  let scanned: ScanResult;
  try {
    scanned = await deps.scan(url, scanOptions, {
      onProgress: (p) => progress.update(p),
      signal: deps.signal,
      // The command line scans what its user can reach, localhost and the office network included.
      addressPolicy: { allowPrivate: true },
      // Beside the options, never in them: options are stored with the result.
      ...(accounts.length ? { accounts } : {}),
    });
  } catch (error) {
    progress.finish();
    if (deps.signal?.aborted || (error instanceof ScanError && error.code === 'aborted')) {
      deps.stderr.write('vibeeval scan: stopped.\n');
      return EXIT.interrupted;
    }
    if (error instanceof ScanError) {
      deps.stderr.write(`vibeeval scan: ${terminalSafe(error.message)}\n`);
      return EXIT.usage;
    }
    deps.stderr.write(`vibeeval scan: the scan failed: ${terminalSafe((error as Error).message ?? String(error))}\n`);
    return EXIT.usage;
  }
  progress.finish();
  // Decided findings leave the score, the counts and --fail-on; the reports list them apart.
  const result = applySuppressions(scanned, baseline.entries);

  // The report: to a file, to stdout (then the summary goes to stderr), or none (summary on stdout).
  let summaryStream = deps.stdout;
  if (format !== null) {
    let report: Buffer | string;
    try {
      report = await render(result, format);
    } catch (error) {
      const message = error instanceof PdfBrowserMissingError ? error.message : `could not render the ${format} report: ${(error as Error).message}`;
      deps.stderr.write(`vibeeval scan: ${message}\n`);
      return EXIT.usage;
    }
    if (out !== null) {
      try {
        await deps.writeFile(out, report);
      } catch (error) {
        deps.stderr.write(`vibeeval scan: could not write ${out}: ${(error as Error).message}\n`);
        return EXIT.usage;
      }
    } else {
      deps.stdout.write(typeof report === 'string' ? report : report.toString('utf8'));
      summaryStream = deps.stderr;
    }
  }
  summaryStream.write(formatSummary(result, { failOn, reportPath: out, format, colour: deps.colour && summaryStream === deps.stdout, accountsGiven: accounts.length }));
  return failingFindings(result, failOn) > 0 ? EXIT.findings : EXIT.ok;
}

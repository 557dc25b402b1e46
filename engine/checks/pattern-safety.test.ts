// Every pattern the engine runs over what a site sends, run over the inputs that make backtracking patterns blow
// up: long runs of one character class, repeated separators, and each pattern's own literals repeated. A safe
// pattern is linear and takes a few ms over 100,000 characters; an unsafe one takes seconds (quadratic) or never
// ends (exponential). Lengths grow 1,000 -> 10,000 -> 100,000 and stop at the first over budget, so an unsafe
// pattern fails in well under a second instead of hanging the run.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { classifyValue, rateExposure } from '../analysis/data-exposure';
import { hintedParameters, idsInTexts } from '../analysis/function-arguments';
import { detectFromContent, detectFromUrl } from '../analysis/js-libraries';
import { parseScanAccounts } from '../../common/scan-accounts';
import { parseCredentials } from '../scenarios/credentials';
import { shannonEntropy } from '../secrets/entropy';
import { findGenericSecrets, SECRET_RULES } from '../secrets/patterns';
import { scanText } from '../secrets/scan';
import { findWebhookUrls, judgeWebhook, WEBHOOK_PATTERNS, WEBHOOK_PLACEHOLDER } from '../secrets/webhooks';
import { makeSite } from '../testing/site';
import type { Site } from '../types';
import { ERROR_SIGNATURES, findErrorSignature } from './error-disclosure';
import { CHECKS } from './index';
import { cpuTimed } from '../testing/cpu-time';

/** Per pattern and input: a linear pattern needs a few ms at 100,000 characters even on a busy 2-core machine. */
const BUDGET_MS = 100;
/**
 * The budgets are CPU time, which a busy machine does not stretch; the wall time is. Quiet, the longest test takes
 * about 8 s; with the machine 8-10 times oversubscribed it took 127 s. This is only the guard against a hang.
 */
const WALL_GUARD_MS = 600_000;
/** Allowance per match of a global pattern. */
const PER_MATCH_MS = 0.002;
const LENGTHS = [1_000, 10_000, 100_000];
const ROOT = path.resolve(__dirname, '..', '..');
/** Folders whose patterns see site-controlled text (bodies, headers, scripts, cookies, rendered pages, logs). */
const SOURCES = ['engine', 'server/log-scrub.ts', 'common/scan-accounts.ts'];

function sourceFiles(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (entry.endsWith('.ts')) return [full];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((dirent) => dirent.isFile() && (dirent.name.endsWith('.ts') || dirent.name.endsWith('.mjs')))
    .map((dirent) => path.join(dirent.parentPath, dirent.name))
    .filter((file) => !file.endsWith('.test.ts') && !file.endsWith('.d.ts') && !file.includes('__fixtures__') && !file.includes(`${path.sep}testing${path.sep}`));
}

interface Named {
  where: string;
  regex: RegExp;
}

/** Every regular expression literal in the engine's sources, found by the TypeScript parser. */
function literalPatterns(): Named[] {
  const found: Named[] = [];
  for (const file of SOURCES.flatMap(sourceFiles)) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText(source);
        const slash = literal.lastIndexOf('/');
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push({ where: `${path.relative(ROOT, file)}:${line}`, regex: new RegExp(literal.slice(1, slash), literal.slice(slash + 1)) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** Runs of letters, digits and spaces in a pattern's source: the literal text it looks for. */
function literalFragments(source: string): string[] {
  const fragments: string[] = [];
  let current = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') {
      if (current.length >= 2) fragments.push(current);
      current = '';
      const next = source[i + 1] ?? '';
      // An escaped punctuation mark is a literal character; an escaped letter is a class (\w, \d, \s).
      if (!/[a-z0-9]/i.test(next)) current = next;
      i++;
      continue;
    }
    if (/[\w :=@#<>"'`/-]/.test(char)) current += char;
    else {
      if (current.length >= 2) fragments.push(current);
      current = '';
    }
  }
  if (current.length >= 2) fragments.push(current);
  return [...new Set(fragments)].slice(0, 12);
}

const RUNS = ['a', 'A', '1', '.', '/', '-', '_', ':', '=', ' ', '\t', '\n', '\r\n', '"', "'", '`', '<', '>', '#', '@', '$', '&nbsp;', '<br>', '\\n', '{', '[', '('];
const REPEATS = ['a.', 'a/', 'a-', 'a_', 'a:', 'a1', 'a ', 'a\n', '1.', 'a.a(', 'x=', 'a@a.', '"a":', 'a\\', '%2', 'eyJ', 'ab/'];

/** Adversarial texts of about `length` characters: `label` for the report, `text` to run. */
function adversarial(length: number, extra: string[] = []): Array<{ label: string; text: string }> {
  const unit = (piece: string) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length);
  return [
    ...RUNS.map((run) => ({ label: `run of ${JSON.stringify(run)}`, text: unit(run) })),
    ...REPEATS.map((piece) => ({ label: `repeated ${JSON.stringify(piece)}`, text: unit(piece) })),
    ...extra.map((piece) => ({ label: `repeated ${JSON.stringify(piece)}`, text: unit(piece) })),
  ];
}

/** Runs a pattern as its code does: every match of a global one, the first of any other; returns the match count. */
function runOver(regex: RegExp, text: string): number {
  // A sticky pattern is run by its code at chosen positions (that scan is tested through its public entry point).
  const fresh = new RegExp(regex.source, regex.flags);
  if (!fresh.global) return fresh.exec(text) ? 1 : 0;
  let count = 0;
  for (const _ of text.matchAll(fresh)) if (++count > 200_000) break;
  return count;
}

/**
 * CPU time of one run, in ms, less an allowance per match (CPU time: other programs on a busy machine do not add to
 * it). Over budget, it is measured twice more and the fastest kept: an unsafe pattern is slow every time, a garbage
 * collection only once.
 */
function timed(work: () => unknown): number {
  let best = Infinity;
  for (let attempt = 0; attempt < 3 && best > BUDGET_MS; attempt++) {
    const { result, ms } = cpuTimed(work);
    // Matches cost their own time (an array each): a linear pattern that matches every character still passes.
    best = Math.min(best, ms - (typeof result === 'number' ? result * PER_MATCH_MS : 0));
  }
  return best;
}

/** The slowest input for `work`, growing the length until an input goes over budget. */
function slowest(work: (text: string) => unknown, extra: string[] = []): { ms: number; label: string; length: number } {
  let worst = { ms: 0, label: '', length: 0 };
  for (const length of LENGTHS) {
    for (const { label, text } of adversarial(length, extra)) {
      const ms = timed(() => work(text));
      if (ms > worst.ms) worst = { ms, label, length };
      // One input over budget is enough to fail: the next ones could take minutes on an unsafe pattern.
      if (worst.ms > BUDGET_MS) return worst;
    }
  }
  return worst;
}

function report(results: Array<{ where: string; worst: { ms: number; label: string; length: number } }>): string[] {
  return results.filter(({ worst }) => worst.ms > BUDGET_MS).map(({ where, worst }) => `${where}: ${Math.round(worst.ms)} ms on a ${worst.label} of ${worst.length}`);
}

describe('patterns over site-controlled text stay linear', () => {
  it('finds the engine patterns to test', () => {
    expect(literalPatterns().length).toBeGreaterThan(300);
  });

  it(
    'every regular expression literal in the engine runs within budget on adversarial inputs',
    () => {
      const results = literalPatterns().map(({ where, regex }) => ({
        where: `${where} ${regex.source.slice(0, 80)}`,
        worst: slowest((text) => runOver(regex, text), literalFragments(regex.source)),
      }));
      expect(report(results)).toEqual([]);
    },
    WALL_GUARD_MS,
  );

  it(
    'every error signature and secret rule (built at run time) runs within budget',
    () => {
      const named: Named[] = [
        ...ERROR_SIGNATURES.map(({ id, pattern }) => ({ where: `error signature ${id}`, regex: pattern })),
        ...SECRET_RULES.map(({ id, regex }) => ({ where: `secret rule ${id}`, regex })),
        ...WEBHOOK_PATTERNS.map(({ id, regex }) => ({ where: `webhook pattern ${id}`, regex })),
        { where: 'webhook placeholder', regex: WEBHOOK_PLACEHOLDER },
      ];
      const results = named.map(({ where, regex }) => ({ where, worst: slowest((text) => runOver(regex, text), literalFragments(regex.source)) }));
      expect(report(results)).toEqual([]);
    },
    WALL_GUARD_MS,
  );

  it(
    'the public scanners run within budget on adversarial bodies',
    () => {
      const scanners: Record<string, (text: string) => unknown> = {
        findErrorSignature,
        'scanText (html)': (text) => scanText(text, 'html'),
        'scanText (script)': (text) => scanText(text, 'script'),
        findGenericSecrets: (text) => findGenericSecrets(text, 3, shannonEntropy),
        detectFromContent,
        detectFromUrl: (text) => detectFromUrl(`https://cdn.example.com/${text}`),
        parseCredentials,
        'parseScanAccounts (file)': (text) => parseScanAccounts(text, 'file'),
        'parseScanAccounts (field)': (text) => parseScanAccounts(text, 'field'),
        'classifyValue (phone column)': (text) => classifyValue('customer_phone', text),
        'classifyValue (address column)': (text) => classifyValue('street_address', text),
        'rateExposure (one row)': (text) =>
          rateExposure({ columns: ['email', 'token', 'ip_address', 'full_name'], row: { email: text, token: text, ip_address: text, full_name: text, card: text } }),
        'hintedParameters (PGRST202 hint)': (text) => hintedParameters(JSON.stringify({ code: 'PGRST202', hint: `Perhaps you meant to call the function public.f(${text})` }), 'f'),
        'idsInTexts (bundle)': (text) => idsInTexts([text], 200_000),
        // Every hit judged too: the payload reading and the constant's uses run over the same text.
        'findWebhookUrls + judgeWebhook': (text) => findWebhookUrls(text).map((hit) => judgeWebhook(hit, text)),
      };
      const extra = [
        'Traceback (most recent call last):\n',
        'at a.b(c.java:1)\n',
        'app.rb:1:in ',
        'apiKey = "',
        'panic: x\n',
        'H="https://n8n.a.io/webhook/a";fetch(H,{body:JSON.stringify(',
        'https://hooks.zapier.com/hooks/catch/123/abcdef/',
      ];
      const results = Object.entries(scanners).map(([where, scan]) => ({ where, worst: slowest(scan, extra) }));
      expect(report(results)).toEqual([]);
    },
    WALL_GUARD_MS,
  );
});

/** A site whose every body, header and probe answer is `text`. */
function hostileSite(text: string): Site {
  const header = text.slice(0, 8_000);
  const headers = { server: header, 'x-powered-by': header, 'set-cookie': [`a=${header}`, header], 'content-security-policy': header, 'access-control-allow-origin': header };
  const exchange = (url: string, contentType: string) => ({ url, headers, body: text, contentType });
  const init = {
    root: exchange('https://target.example/', 'text/html'),
    pages: [exchange('https://target.example/a', 'text/html'), exchange('https://target.example/api', 'application/json')],
    assets: [
      exchange('https://target.example/app.js', 'application/javascript'),
      { ...exchange('https://target.example/app.js.map', 'application/json'), kind: 'sourcemap' as const },
    ],
    robots: exchange('https://target.example/robots.txt', 'text/plain'),
    notFound: exchange('https://target.example/nope', 'text/html'),
  };
  const planned = makeSite(init);
  // Every probe any check plans is answered with the same text.
  const probes = Object.fromEntries(CHECKS.flatMap((check) => check.probes?.(planned) ?? []).map((probe) => [probe.key, exchange(probe.url, 'text/plain')]));
  return makeSite({ ...init, probes });
}

describe('checks over a hostile site stay within budget', () => {
  it(
    'every check runs within budget when every body, header and probe answer is adversarial',
    () => {
      const results: Array<{ where: string; worst: { ms: number; label: string; length: number } }> = [];
      for (const length of [1_000, 20_000]) {
        for (const { label, text } of adversarial(length).filter((_, i) => i % 2 === 0)) {
          const site = hostileSite(text);
          // A check reads every exchange: the budget grows with their number, not with their length.
          const exchanges = site.pages.length + site.assets.length + site.probes.size + 3;
          for (const check of CHECKS) {
            const ms = timed(() => check.run(site));
            if (ms > BUDGET_MS + exchanges * 5) {
              results.push({ where: check.id, worst: { ms, label, length } });
              expect(report(results)).toEqual([]);
            }
          }
        }
      }
      expect(report(results)).toEqual([]);
    },
    WALL_GUARD_MS,
  );
});

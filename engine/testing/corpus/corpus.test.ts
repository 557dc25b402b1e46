// The accuracy corpus's goals, checked on every `npm test`: every app scanned as a user would scan it. Its speed goal
// (the whole corpus in under a minute) is a figure of the machine as much as of the code: `npm run bench:accuracy`
// holds it, on a machine that runs nothing else.
import { beforeAll, describe, expect, it } from 'vitest';
import { distinguishingLines, rowText } from '../../../common/finding-rows';
import { CORPUS } from './apps/index';
import type { AppResult } from './harness';
import { corpusErrors, formatReport, runCorpus, summarize, type CorpusReport } from './run';

const GOALS = { recall: 0.95, apps: 30, controls: 8 };

let results: AppResult[] = [];
let report: CorpusReport;

beforeAll(async () => {
  const t0 = performance.now();
  results = await runCorpus(CORPUS);
  report = summarize(results, Math.round(performance.now() - t0));
  // The table, misses and false positives, for whoever reads a failing run.
  console.log(formatReport(report));
}, 180_000);

describe('corpusErrors', () => {
  it('names duplicate ids, unknown checks, labelled controls and unlabelled vulnerable apps, and accepts checks being built', () => {
    const app = (id: string, checkIds: string[], control = false) => ({
      id,
      shape: 'static' as const,
      title: id,
      control,
      expect: checkIds.map((checkId) => ({ checkId })),
      routes: () => ({}),
    });
    expect(
      corpusErrors([app('a', ['csp-missing']), app('a', ['jwt-weak-secret']), app('b', ['no-such-check']), app('c', ['csp-missing'], true), app('d', []), app('E_x', ['hsts'])]),
    ).toEqual([
      'a: duplicate app id',
      "b: unknown check 'no-such-check'",
      'c: a clean control has no labels',
      'd: a vulnerable app needs at least one label (or control: true)',
      'E_x: ids are kebab-case',
    ]);
  });
});

describe('the accuracy corpus', () => {
  it('is well formed: unique kebab-case ids, known checks, labels on every vulnerable app and none on controls', () => {
    expect(corpusErrors(CORPUS)).toEqual([]);
  });

  it(`has at least ${GOALS.apps} apps and ${GOALS.controls} clean controls`, () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(GOALS.apps);
    expect(CORPUS.filter((app) => app.control).length).toBeGreaterThanOrEqual(GOALS.controls);
  });

  it('scans every app without an error', () => {
    expect(results.filter((r) => r.error).map((r) => `${r.app.id}: ${r.error}`)).toEqual([]);
  });

  it('lists no finding twice: in every app, no two findings read the same in the dashboard (title, address, what tells them apart)', () => {
    const twice = results.flatMap((r) => {
      const lines = distinguishingLines(r.findings);
      const rows = r.findings.map((finding) => rowText(finding, lines));
      return rows.filter((row, i) => rows.indexOf(row) !== i).map((row) => `${r.app.id}: ${row.replaceAll('\n', ' | ')}`);
    });
    expect(twice).toEqual([]);
    // And no fingerprint twice: a decision or 'Check again' on one finding is about exactly one row.
    expect(results.filter((r) => new Set(r.findings.map((f) => f.fingerprint)).size !== r.findings.length).map((r) => r.app.id)).toEqual([]);
  });

  it('sends no write request to any app or stand-in', () => {
    expect(report.writes).toEqual([]);
  });

  it('signs up once in each active app where a new account can sign in at once, and never anywhere else', () => {
    const expected = results.map((r) => `${r.app.id}: ${r.app.active && r.app.supabase?.signUp === 'auto' ? 1 : 0}`);
    expect(results.map((r) => `${r.app.id}: ${r.signUps}`)).toEqual(expected);
  });

  it('finds nothing at medium or above on any clean control', () => {
    expect(report.noisyControls).toEqual([]);
  });

  it(`finds at least ${GOALS.recall * 100}% of the labelled weaknesses`, () => {
    expect(report.overall.labelled).toBeGreaterThan(0);
    expect(report.overall.recall, `misses: ${report.misses.map((m) => `${m.app} ${m.checkId}`).join(', ')}`).toBeGreaterThanOrEqual(GOALS.recall);
  });

  it(`finds at least ${GOALS.recall * 100}% of the weaknesses only a signed-in user reaches, signing in as every app's test accounts`, () => {
    expect(report.signedIn.overall.labelled).toBeGreaterThan(0);
    expect(report.signedIn.overall.recall).toBeGreaterThanOrEqual(GOALS.recall);
    const notSignedIn = results.flatMap((r) =>
      (r.app.accounts ?? []).filter((account) => !r.signIns?.some((line) => line.account === account.login && line.signedIn)).map((account) => `${r.app.id}: ${account.login}`),
    );
    expect(notSignedIn).toEqual([]);
  });
});

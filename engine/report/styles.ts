import { raw, type Html } from '../html-kit';

// The reports' stylesheets in one place: the security report (html.ts) and the performance, accessibility and
// analytics reports (audit-html.ts) share a look (cover, cards, counts, badges, rows, tables, print) and differ in
// what only one of them shows. Each sheet is the shared rules, then its own, then the shared media rules, then its
// own: media rules come last so that what they change for small screens and print wins over the rules above.

const BASE_RULES = `
:root {
  --ink: #0f172a; --muted: #475569; --faint: #64748b; --line: #e2e8f0; --paper: #ffffff; --bg: #f1f5f9; --brand: #4338ca;
  --critical: #b91c1c; --critical-bg: #fee2e2; --high: #c2410c; --high-bg: #ffedd5;
  --medium: #854d0e; --medium-bg: #fef08a; --medium-bar: #eab308; --low: #1d4ed8; --low-bg: #dbeafe;
  --info: #475569; --info-bg: #e2e8f0; --pass: #15803d; --pass-bg: #dcfce7;
}
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 14px/1.55 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif; }
a { color: var(--brand); overflow-wrap: anywhere; }
.report { max-width: 960px; margin: 0 auto; background: var(--paper); }
section { padding: 20px 32px; }
h1, h2, h3, h4 { line-height: 1.25; margin: 0; }
h2 { font-size: 19px; padding-bottom: 8px; margin-bottom: 14px; border-bottom: 2px solid var(--ink); break-after: avoid; page-break-after: avoid; }
h4 { font-size: 11px; letter-spacing: .08em; text-transform: uppercase; color: var(--faint); margin: 14px 0 4px; }
.cover { background: #0f172a; color: #f8fafc; padding: 28px 32px 24px; }
.brand { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; flex-wrap: wrap; font-size: 12px; letter-spacing: .12em; text-transform: uppercase; color: #a5b4fc; }
.brand strong { font-size: 16px; letter-spacing: .02em; text-transform: none; color: #fff; }
.cover h1 { font-size: 28px; margin: 18px 0 4px; overflow-wrap: anywhere; }
.cover .target { margin: 0; color: #cbd5e1; overflow-wrap: anywhere; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
.meta { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px 20px; margin: 22px 0 0; padding-top: 16px; border-top: 1px solid #334155; }
.meta div { min-width: 0; }
.meta dt { font-size: 11px; letter-spacing: .08em; text-transform: uppercase; color: #94a3b8; }
.meta dd { margin: 2px 0 0; font-weight: 600; overflow-wrap: anywhere; }
.overview { padding-top: 24px; }
.count span { font-size: 12px; font-weight: 600; }
.count.sev-critical { background: var(--critical-bg); border-color: var(--critical); color: var(--critical); }
.count.sev-high { background: var(--high-bg); border-color: var(--high); color: var(--high); }
.count.sev-medium { background: #fef9c3; border-color: var(--medium-bar); color: var(--medium); }
.count.sev-low { background: var(--low-bg); border-color: var(--low); color: var(--low); }
.count.sev-info { background: #f1f5f9; border-color: var(--info); color: var(--info); }
.badge { display: inline-block; flex: none; border-radius: 999px; padding: 2px 10px; font-size: 11.5px; font-weight: 700; white-space: nowrap; }
.badge.sev-critical { background: var(--critical); color: #fff; }
.badge.sev-high { background: var(--high); color: #fff; }
.badge.sev-medium { background: var(--medium-bar); color: #422006; }
.badge.sev-low { background: var(--low); color: #fff; }
.badge.sev-info { background: var(--info-bg); color: var(--info); }
.badge.passed { background: var(--pass); color: #fff; }
.rows { list-style: none; margin: 0; padding: 0; }
.rows li { display: flex; align-items: center; gap: 12px; padding: 9px 12px; margin-bottom: 6px; border-radius: 8px; border-left: 5px solid; break-inside: avoid; }
.rows li .what { flex: 1; min-width: 0; }
.rows .badge { min-width: 92px; text-align: center; }
.rows li .what b { display: block; font-weight: 600; }
.rows li .what span { display: block; color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.rows a { color: inherit; text-decoration: none; }
.rows .row-critical { background: var(--critical-bg); border-color: var(--critical); }
.rows .row-high { background: var(--high-bg); border-color: var(--high); }
.rows .row-medium { background: #fef9c3; border-color: var(--medium-bar); }
.rows .row-low { background: var(--low-bg); border-color: var(--low); }
.rows .row-passed { background: var(--pass-bg); border-color: var(--pass); }
.finding.sev-critical { border-left-color: var(--critical); } .finding.sev-high { border-left-color: var(--high); }
.finding.sev-medium { border-left-color: var(--medium-bar); } .finding.sev-low { border-left-color: var(--low); }
.finding > header { display: flex; gap: 10px; align-items: flex-start; flex-wrap: wrap; }
.finding > header h3 { margin: 0; flex: 1 1 240px; font-size: 16px; }
.finding .ref { font: 600 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--faint); }
.text { white-space: pre-line; margin: 0; overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th { text-align: left; font-size: 11px; letter-spacing: .06em; text-transform: uppercase; color: var(--faint); border-bottom: 2px solid var(--line); padding: 6px 8px; }
td { border-bottom: 1px solid var(--line); padding: 7px 8px; vertical-align: top; overflow-wrap: anywhere; }
tr { break-inside: avoid; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td code, .mono { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.note { color: var(--muted); font-size: 13px; margin: 0 0 12px; }
.empty { color: var(--muted); font-style: italic; }
.warnings li { margin-bottom: 4px; overflow-wrap: anywhere; }
.foot { padding: 18px 32px 28px; color: var(--faint); font-size: 12px; border-top: 1px solid var(--line); }
`;

const BASE_MEDIA = `@media (max-width: 600px) {
  body { font-size: 13.5px; }
  section, .cover, .foot { padding-left: 16px; padding-right: 16px; }
  .cover h1 { font-size: 22px; }
  .finding { padding: 12px 12px 14px; }
  .rows li { flex-wrap: wrap; gap: 6px 10px; }
  table.stack thead { display: none; }
  table.stack tr { display: block; border-bottom: 1px solid var(--line); padding: 6px 0; }
  table.stack td { display: block; border: 0; padding: 2px 0; text-align: left; }
}
@page { size: A4; }
@media print {
  body { background: #fff; font-size: 12px; }
  .report { max-width: none; }
  section { padding: 14px 0; }
  .cover { padding: 22px 24px 18px; border-radius: 8px; }
  .foot { padding: 12px 0 0; }
  pre { max-height: none; overflow: visible; }
  .table-wrap { overflow: visible; }
  a { text-decoration: none; }
}
`;

/** The security report's own rules: score cards and grades, passed rows, finding facts, evidence, coverage gaps. */
const SECURITY_RULES = `h3 { font-size: 15px; margin: 20px 0 10px; break-after: avoid; page-break-after: avoid; }
.scores { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 16px; margin-bottom: 16px; }
.card { border: 1px solid var(--line); border-radius: 10px; padding: 16px; display: flex; gap: 16px; align-items: center; break-inside: avoid; }
.grade { flex: none; width: 72px; height: 72px; border-radius: 50%; display: grid; place-items: center; font-size: 30px; font-weight: 800; color: #fff; }
.grade-a { background: #15803d; } .grade-b { background: #65a30d; } .grade-c { background: #ca8a04; } .grade-d { background: #ea580c; } .grade-f { background: #b91c1c; }
.card .label { font-size: 11px; letter-spacing: .08em; text-transform: uppercase; color: var(--faint); }
.card .value { font-size: 24px; font-weight: 700; }
.card .value small { font-size: 14px; color: var(--faint); font-weight: 500; }
.card p { margin: 2px 0 0; color: var(--muted); font-size: 12.5px; }
.counts { display: grid; grid-template-columns: repeat(auto-fit, minmax(110px, 1fr)); gap: 10px; }
.count { border-radius: 8px; padding: 10px 12px; border-left: 5px solid; break-inside: avoid; }
.count b { display: block; font-size: 24px; line-height: 1.1; }
.badge.fail { background: var(--critical-bg); color: var(--critical); }
.rows.compact { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 6px 10px; }
.rows.compact li { margin-bottom: 0; }
.rows.compact .badge { min-width: 0; }
.rows .row-info { background: #f8fafc; border-color: var(--info); }
.finding { border: 1px solid var(--line); border-left: 6px solid; border-radius: 10px; padding: 14px 18px 16px; margin-bottom: 14px; break-inside: avoid; page-break-inside: avoid; }
.finding.sev-info { border-left-color: var(--info); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 14px; margin: 12px 0 0; font-size: 13px; }
.facts dt { color: var(--faint); }
.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.detail { margin-top: 10px; }
pre { margin: 0 0 8px; padding: 10px 12px; background: #0f172a; color: #e2e8f0; border-radius: 6px; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; overflow-wrap: anywhere; word-break: break-word; max-height: 28em; overflow: auto; }
pre.match { background: #fefce8; color: #713f12; border: 1px solid #fde047; }
.ev-label { font-size: 11px; font-weight: 600; color: var(--muted); margin: 6px 0 3px; }
.remediation { background: var(--pass-bg); border-radius: 6px; padding: 10px 12px; }
.refs { margin: 0; padding-left: 18px; font-size: 13px; }
.fix-prompt { margin-top: 12px; font-size: 13px; }
.fix-prompt summary { cursor: pointer; font-weight: 600; color: var(--accent, #4338ca); }
.fix-prompt p { color: var(--muted); margin: 6px 0; }
.fix-prompt pre { user-select: all; -webkit-user-select: all; background: #f8fafc; color: #0f172a; border: 1px solid #cbd5e1; max-height: 20em; }
.gaps { background: #fef9c3; border-left: 5px solid var(--medium-bar); border-radius: 8px; padding: 10px 14px 10px 30px; margin: 0 0 14px; color: #422006; }
.gaps li { margin: 2px 0; overflow-wrap: anywhere; }
.complete { background: var(--pass-bg); border-left: 5px solid var(--pass); border-radius: 8px; padding: 10px 14px; margin: 0 0 14px; }
.badge.not-checked { background: #fef08a; color: #422006; }
`;

const SECURITY_MEDIA = `@media (max-width: 600px) {
  .facts { grid-template-columns: 1fr; }
  .facts dd { margin-bottom: 6px; }
}
@media print {
  h2 { break-before: auto; }
  .findings-section { break-before: page; }
  .fix-prompt { display: none; }
}
`;

/** The audit reports' own rules: metric cards, ratings, violation nodes, bar and column charts. */
const AUDIT_RULES = `h3 { font-size: 15px; margin: 20px 0 10px; break-after: avoid; page-break-after: avoid; overflow-wrap: anywhere; }
.counts { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 10px; }
.count { border-radius: 8px; padding: 10px 12px; border-left: 5px solid; break-inside: avoid; min-width: 0; }
.count b { display: block; font-size: 24px; line-height: 1.1; overflow-wrap: anywhere; }
.count.passed { background: var(--pass-bg); border-color: var(--pass); color: var(--pass); }
.badge.rate-poor { background: var(--critical); color: #fff; }
.badge.rate-needs-improvement { background: var(--medium-bar); color: #422006; }
.badge.rate-none { background: var(--info-bg); color: var(--info); }
.badge.rate-good { background: var(--pass); color: #fff; }
.metrics { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: 12px; margin-bottom: 16px; }
.metric { border: 1px solid var(--line); border-top: 5px solid var(--info); border-radius: 10px; padding: 12px 14px; break-inside: avoid; }
.metric.rate-good { border-top-color: var(--pass); } .metric.rate-needs-improvement { border-top-color: var(--medium-bar); } .metric.rate-poor { border-top-color: var(--critical); }
.metric .label { font-size: 11px; letter-spacing: .08em; text-transform: uppercase; color: var(--faint); }
.metric .value { font-size: 26px; font-weight: 700; margin: 2px 0 4px; }
.metric p { margin: 6px 0 0; color: var(--muted); font-size: 12px; }
.rows li .n { font-weight: 700; font-variant-numeric: tabular-nums; white-space: nowrap; }
.finding { border: 1px solid var(--line); border-left: 6px solid; border-radius: 10px; padding: 14px 18px 16px; margin-bottom: 14px; break-inside: avoid-page; }
.node { border-top: 1px dashed var(--line); padding-top: 8px; margin-top: 10px; }
.node .where { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--muted); overflow-wrap: anywhere; margin-bottom: 4px; }
.node .why { font-size: 12.5px; color: var(--muted); }
pre { margin: 0 0 6px; padding: 8px 10px; background: #0f172a; color: #e2e8f0; border-radius: 6px; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; overflow-wrap: anywhere; word-break: break-word; max-height: 20em; overflow: auto; }
th.num { text-align: right; }
td.rate-good { color: var(--pass); font-weight: 600; } td.rate-needs-improvement { color: var(--medium); font-weight: 600; background: #fef9c3; } td.rate-poor { color: var(--critical); font-weight: 700; background: var(--critical-bg); }
td.when { white-space: nowrap; }
.bars { display: grid; grid-template-columns: minmax(120px, 34%) 1fr max-content; gap: 6px 12px; align-items: center; font-size: 13px; margin: 0 0 8px; }
.bars .name { min-width: 0; overflow-wrap: anywhere; }
.bars .track { position: relative; height: 16px; background: #f1f5f9; border-radius: 4px; overflow: hidden; }
.bars .fill { height: 100%; background: var(--brand); border-radius: 4px; }
.bars .fill.rate-good { background: var(--pass); } .bars .fill.rate-needs-improvement { background: var(--medium-bar); } .bars .fill.rate-poor { background: var(--critical); }
.bars .fill.kind-error { background: var(--critical); }
.bars .mark { position: absolute; top: 0; bottom: 0; width: 0; border-left: 2px dashed #64748b; }
.bars .val { font-variant-numeric: tabular-nums; white-space: nowrap; text-align: right; font-weight: 600; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12px; color: var(--muted); margin: 0 0 10px; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; }
.columns { display: flex; align-items: flex-end; gap: 2px; height: 160px; padding: 0 0 0 2px; border-bottom: 2px solid var(--line); border-left: 2px solid var(--line); }
.columns .col { flex: 1 1 0; min-width: 1px; height: 100%; display: flex; flex-direction: column; justify-content: flex-end; }
.columns .ok { background: var(--brand); } .columns .err { background: var(--critical); }
.axis { display: flex; justify-content: space-between; font-size: 11.5px; color: var(--faint); margin-top: 4px; }
.methods li { margin-bottom: 4px; color: var(--muted); font-size: 13px; }
`;

const AUDIT_MEDIA = `@media (max-width: 600px) {
  .bars { grid-template-columns: 1fr max-content; }
  .bars .name { grid-column: 1 / -1; }
}
`;

/** The security scan report's stylesheet (trusted: the product's own constant). */
export const SECURITY_REPORT_STYLE: Html = raw(`${BASE_RULES}${SECURITY_RULES}${BASE_MEDIA}${SECURITY_MEDIA}`);

/** The performance, accessibility and analytics reports' stylesheet. */
export const AUDIT_REPORT_STYLE: Html = raw(`${BASE_RULES}${AUDIT_RULES}${BASE_MEDIA}${AUDIT_MEDIA}`);

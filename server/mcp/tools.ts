// The MCP tools, defined once: the HTTP endpoint (/mcp) serves them, and `vibeeval mcp` on stdio forwards to it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { PAGE_SIZES } from '../../common/pagination';
import { SEVERITY_RANK, type Finding, type ScanCoverage, type ScanProgress, type ScanResult } from '../../common/scan';
import { coverageFacts, coverageGaps } from '../../common/scan-coverage';
import { safeMessage } from '../log-scrub';
import { BadCursorError } from '../pagination';
import { VERSION } from '../version';
import { explainFinding, resultStacks } from '../../common/fix-prompt';
import { DECISION_LABELS, decisionBodySchema, DECISIONS, type Decision, type DecisionKind } from '../../common/triage';
import { HttpError } from '../http-errors';
import type { TriageService } from '../triage/service';
import { completedResult, startScan, ToolError, waitForScan, workspaceScan, type McpScanDeps, type ScanTarget } from './scans';
import type { McpOwner } from './sessions';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface McpToolDeps extends McpScanDeps {
  logger: FastifyBaseLogger;
  /** The projects' triage decisions (list_decisions, set_decision). */
  triage: Pick<TriageService, 'list' | 'set' | 'reopen'>;
}

/** Findings listed in one answer: the most severe first; get_scan_findings pages through the rest. */
const FINDINGS_PER_ANSWER = 50;

const SCAN_URL_DESCRIPTION =
  'Scan a website for security holes (exposed Supabase/Firebase data, leaked API keys, exposed .env/.git files, missing security headers, open CORS, weak cookies, vulnerable libraries). ' +
  'Runs a real scan in vibeeval (read-only: it never writes to the site), waits until it finishes (usually under a minute, at most 10), and returns the grade, score, severity counts, findings and what could not be checked (a backend that did not answer, pages behind a login). ' +
  'Pass a deployed or local URL of the app you are building. Then call explain_finding for each finding you want to fix, and call scan_url again after fixing to confirm.';

const findingLine = (f: Finding) => ({ id: f.fingerprint, severity: f.severity, title: f.title, where: f.url, check: f.checkId });

function bySeverity(findings: Finding[]): Finding[] {
  return [...findings].sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);
}

/**
 * The end of a scan's text answer: what was fetched and what could not be checked, in the words every report uses,
 * so an agent never reads an empty answer as a safe site. A result stored before coverage was recorded says so.
 */
export function coverageLines(coverage: ScanCoverage | undefined): string[] {
  if (!coverage) return ['Coverage: not recorded for this scan (it ran before coverage was recorded): an answer without findings does not show that everything could be checked.'];
  const facts = coverageFacts(coverage);
  const gaps = coverageGaps(coverage);
  return [...(facts ? [`Coverage: ${facts}.`] : []), ...(gaps.length ? ['Not checked:', ...gaps.map((gap) => `- ${gap}`)] : [])];
}

/** The line for a scan without findings: "No findings." only when everything found could be checked. */
function noFindingsLine(coverage: ScanCoverage | undefined): string {
  if (!coverage) return 'No findings.';
  return coverageGaps(coverage).length ? 'No findings in what could be checked, but not everything could be checked (see "Not checked" below).' : 'No findings.';
}

/** The answer of scan_url: a text summary and the same as structuredContent, with the scan's coverage. */
export function scanSummary(scanId: string, result: ScanResult): CallToolResult {
  const findings = bySeverity(result.findings);
  const shown = findings.slice(0, FINDINGS_PER_ANSWER).map(findingLine);
  const { counts } = result;
  const lines = [
    `Scan ${scanId} of ${result.target.url}: grade ${result.grade}, score ${result.score}/100, ${result.pages.length} page(s) scanned.`,
    `Findings: ${counts.critical} critical, ${counts.high} high, ${counts.medium} medium, ${counts.low} low, ${counts.info} info.`,
    ...shown.map((f) => `- [${f.severity}] ${f.title} at ${f.where} (finding_id ${f.id})`),
    ...(findings.length > shown.length ? [`(${findings.length - shown.length} more: call get_scan_findings with scan_id ${scanId})`] : []),
    findings.length ? `Call explain_finding with scan_id ${scanId} and a finding_id for the fix.` : noFindingsLine(result.coverage),
    ...coverageLines(result.coverage),
  ];
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: {
      scan_id: scanId,
      url: result.target.url,
      grade: result.grade,
      score: result.score,
      counts,
      findings: shown,
      total_findings: findings.length,
      coverage: result.coverage ?? null,
    },
  };
}

function progressMessage(progress: ScanProgress | null, state: string): string {
  if (!progress) return state === 'queued' ? 'Queued' : state;
  return `${progress.phase}: ${progress.pagesDone}/${progress.pagesTotal} pages, ${progress.findings} finding(s)${progress.message ? ` (${progress.message})` : ''}`;
}

/** A fraction of the scan as progress/total: pages while crawling, checks after; the total stays 100. */
function progressValue(progress: ScanProgress | null): number {
  if (!progress) return 0;
  if (progress.phase === 'done') return 100;
  const pages = progress.pagesTotal ? progress.pagesDone / progress.pagesTotal : 0;
  const checks = progress.checksTotal ? progress.checksRun / progress.checksTotal : 0;
  return Math.min(99, Math.round(progress.phase === 'crawl' || progress.phase === 'render' ? 5 + pages * 45 : 50 + checks * 49));
}

async function scanUrlTool(deps: McpToolDeps, owner: McpOwner, args: { url?: string; projectId?: string; pages?: number }, extra: Extra): Promise<CallToolResult> {
  const target: ScanTarget | null = args.projectId !== undefined ? { projectId: args.projectId, url: args.url } : args.url !== undefined ? { url: args.url } : null;
  if (!target) throw new ToolError('Pass url, or projectId (from list_projects) to scan a project signed in as its stored test accounts.');
  const scan = await startScan(deps, owner, target, args.pages);
  const token = extra._meta?.progressToken;
  let sent = -1;
  // The scan's own live messages wake the wait (any instance's worker publishes them); the row says what is true.
  const wake = (poke: () => void) => deps.live.subscribe(owner.workspaceId, (message) => 'scan_id' in message && message.scan_id === scan.id && poke());
  const done = await waitForScan(
    deps.db,
    owner.workspaceId,
    scan.id,
    extra.signal,
    async (progress, state) => {
      if (token === undefined) return;
      // Progress must increase with each notification: a repeated value is not sent.
      const value = Math.max(progressValue(progress), sent + 1);
      if (value > 100) return;
      sent = value;
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: value, total: 100, message: progressMessage(progress, state) } });
    },
    { wake },
  );
  return scanSummary(done.id, completedResult(done));
}

async function findingsTool(deps: McpToolDeps, { workspaceId }: McpOwner, args: { scan_id: string; offset?: number }): Promise<CallToolResult> {
  const row = await workspaceScan(deps.db, workspaceId, args.scan_id);
  const result = completedResult(row);
  const offset = args.offset ?? 0;
  const all = bySeverity(result.findings);
  const page = all.slice(offset, offset + FINDINGS_PER_ANSWER);
  const findings = page.map((f) => ({ ...findingLine(f), detail: f.detail, confidence: f.confidence, cwe: f.cwe, evidence: f.evidence, remediation: f.remediation }));
  const next = offset + page.length < all.length ? offset + page.length : null;
  const text = [
    `Scan ${row.id} of ${result.target.url}: grade ${result.grade}, ${all.length} finding(s)${all.length ? `, showing ${offset + 1}-${offset + page.length}` : ''}.`,
    ...findings.map(
      (f) =>
        `\n## [${f.severity}] ${f.title} (finding_id ${f.id})\nWhere: ${f.where}\n${f.detail}\nEvidence:\n${[f.evidence.request, f.evidence.response, f.evidence.match && `Match: ${f.evidence.match}`].filter(Boolean).join('\n')}`,
    ),
    ...(next !== null ? [`\nMore: call get_scan_findings with offset ${next}.`] : []),
    ...(all.length ? [] : [noFindingsLine(result.coverage)]),
    '',
    ...coverageLines(result.coverage),
  ].join('\n');
  const coverage = result.coverage ?? null;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { scan_id: row.id, grade: result.grade, score: result.score, total: all.length, next_offset: next, findings, coverage },
  };
}

/** Says that a finding was suppressed, how and why: an agent must not 'fix' what a person decided to keep. */
function suppressionLine({ decision, reason, expires_at }: { decision: DecisionKind; reason: string; expires_at?: string | null }): string {
  const until = expires_at ? ` until ${expires_at.slice(0, 10)}` : '';
  return `Suppressed: marked as ${DECISION_LABELS[decision].toLowerCase()}${until}, so it is left out of the score and counts. Reason: ${reason}`;
}

async function explainTool(deps: McpToolDeps, { workspaceId }: McpOwner, args: { scan_id: string; finding_id: string }): Promise<CallToolResult> {
  const result = completedResult(await workspaceScan(deps.db, workspaceId, args.scan_id));
  // A finding a person decided about is still explained, with the decision first.
  const finding = result.findings.find((f) => f.fingerprint === args.finding_id) ?? result.suppressed?.find((f) => f.fingerprint === args.finding_id);
  if (!finding) throw new ToolError(`Finding not found in scan ${args.scan_id}: use an id from scan_url or get_scan_findings.`);
  const stacks = resultStacks(result);
  const explanation = explainFinding(finding, stacks, result.target.url);
  const suppression = result.suppressed?.find((f) => f.fingerprint === finding.fingerprint)?.suppression ?? null;
  const text = suppression ? `${suppressionLine(suppression)}\n\n${explanation.text}` : explanation.text;
  return {
    content: [{ type: 'text', text }],
    structuredContent: {
      finding_id: finding.fingerprint,
      title: finding.title,
      severity: finding.severity,
      stacks,
      what: explanation.what,
      where: explanation.where,
      verify: explanation.verify,
      suppression,
    },
  };
}

const decisionLine = (d: Decision) =>
  `- ${d.fingerprint}: ${DECISION_LABELS[d.decision]}${d.expires_at ? ` until ${d.expires_at.slice(0, 10)}` : ''}${d.active ? '' : ' (expired)'}, by ${d.decided_by.email ?? 'a former member'} on ${d.decided_at.slice(0, 10)}. Reason: ${d.reason}`;

async function decisionsTool(deps: McpToolDeps, owner: McpOwner, args: { project_id: string; cursor?: string }): Promise<CallToolResult> {
  const page = await deps.triage.list(owner, args.project_id, { limit: PAGE_SIZES.decisions.fallback, cursor: args.cursor }).catch((error: unknown) => {
    throw error instanceof BadCursorError ? new ToolError('This cursor is not valid: pass next_cursor from the previous list_decisions answer.') : error;
  });
  const text = [
    page.items.length ? `${page.items.length} decision(s), latest first:` : 'No finding of this project is marked as a false positive or an accepted risk.',
    ...page.items.map(decisionLine),
    ...(page.next ? [`More: call list_decisions again with cursor ${page.next}.`] : []),
  ].join('\n');
  return { content: [{ type: 'text', text }], structuredContent: { decisions: page.items, next_cursor: page.next } };
}

async function setDecisionTool(
  deps: McpToolDeps,
  owner: McpOwner,
  args: { project_id: string; finding_id: string; decision: DecisionKind | 'reopen'; reason?: string; expires_at?: string },
): Promise<CallToolResult> {
  if (args.decision === 'reopen') {
    await deps.triage.reopen(owner, args.project_id, args.finding_id);
    return { content: [{ type: 'text', text: `Reopened: finding ${args.finding_id} counts again from the next scan's numbers.` }] };
  }
  const body = decisionBodySchema.safeParse({ decision: args.decision, reason: args.reason, ...(args.expires_at ? { expires_at: args.expires_at } : {}) });
  if (!body.success) throw new ToolError(body.error.issues.map((issue) => issue.message).join('; '));
  const decided = await deps.triage.set(owner, args.project_id, args.finding_id, body.data);
  return {
    content: [{ type: 'text', text: `Marked:\n${decisionLine(decided)}\nIt is left out of the score, the grade and the counts.` }],
    structuredContent: { decision: decided },
  };
}

async function projectsTool(deps: McpToolDeps, { workspaceId }: McpOwner, args: { cursor?: string }): Promise<CallToolResult> {
  const page = await deps.projects.list(workspaceId, { limit: PAGE_SIZES.projects.fallback, cursor: args.cursor }).catch((error: unknown) => {
    throw error instanceof BadCursorError ? new ToolError('This cursor is not valid: pass next_cursor from the previous list_projects answer.') : error;
  });
  const projects = page.items.map((p) => ({
    id: p.id,
    url: p.url,
    name: p.instruction_text ?? p.url,
    last_scan: p.latest_scan
      ? { id: p.latest_scan.id, state: p.latest_scan.state, grade: p.latest_scan.grade, score: p.latest_scan.score, at: p.latest_scan.finished_at ?? p.latest_scan.queued_at }
      : null,
  }));
  const text = [
    projects.length ? `${projects.length} project(s):` : 'No projects yet: call scan_url with your site to create one.',
    ...projects.map(
      (p) =>
        `- ${p.name} ${p.url} (id ${p.id}) ${p.last_scan ? `last scan ${p.last_scan.id}: ${p.last_scan.state}${p.last_scan.grade ? `, grade ${p.last_scan.grade}` : ''} at ${p.last_scan.at}` : 'never scanned'}`,
    ),
    ...(page.next ? [`More: call list_projects with cursor ${page.next}.`] : []),
  ].join('\n');
  return { content: [{ type: 'text', text }], structuredContent: { projects, next_cursor: page.next } };
}

/** Runs a tool body; a ToolError (or any failure) becomes an isError result the agent can read. */
async function answer(logger: FastifyBaseLogger, tool: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ToolError) return { isError: true, content: [{ type: 'text', text: error.message }] };
    // A refusal of the service (not found, invalid, too many) is said as the dashboard says it.
    if (error instanceof HttpError && error.statusCode < 500) return { isError: true, content: [{ type: 'text', text: error.message }] };
    logger.error({ tool, err: safeMessage(error) }, 'MCP tool failed');
    return { isError: true, content: [{ type: 'text', text: `The ${tool} tool failed on the server; try again in a moment.` }] };
  }
}

const scanIdSchema = z.string().max(64).describe('The id of one of your scans (from scan_url or list_projects).');

/** An MCP server whose tools act for the API key's member in the key's workspace. One per MCP session. */
export function createMcpServer(deps: McpToolDeps, owner: McpOwner): McpServer {
  const server = new McpServer({ name: 'vibeeval', version: VERSION }, { capabilities: { tools: {} } });
  const { logger } = deps;
  server.registerTool(
    'scan_url',
    {
      title: 'Scan a website for security holes',
      description: SCAN_URL_DESCRIPTION,
      inputSchema: {
        url: z.string().max(2048).optional().describe('The site to scan, e.g. https://my-app.vercel.app or http://localhost:3000 (or give projectId)'),
        projectId: z
          .string()
          .max(100)
          .optional()
          .describe("A project's id (from list_projects): scans it signed in as the test accounts stored in its Credentials; passwords are never passed here"),
        pages: z.number().int().min(1).max(1000).optional().describe('How many pages to crawl (default: the project setting, 1 for a new project)'),
      },
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (args, extra) => answer(logger, 'scan_url', () => scanUrlTool(deps, owner, args, extra)),
  );
  server.registerTool(
    'get_scan_findings',
    {
      title: 'Get the findings of a scan',
      description:
        'The findings of one of your completed scans, most severe first, each with its evidence (the request sent and the answer, secrets masked), detail and remediation. 50 per call; pass offset for more.',
      inputSchema: { scan_id: scanIdSchema, offset: z.number().int().min(0).max(100_000).optional().describe('Skip this many findings (from next_offset)') },
      annotations: { readOnlyHint: true },
    },
    (args) => answer(logger, 'get_scan_findings', () => findingsTool(deps, owner, args)),
  );
  server.registerTool(
    'explain_finding',
    {
      title: 'Explain how to fix a finding',
      description:
        'How to fix one finding, written for you as the coding agent: what to change, where (the files and settings of the stack it was found on: Supabase RLS SQL, Next.js config, Vercel/Netlify headers, Express middleware, Firebase rules), and how to verify (the exact request to repeat and what it must answer afterwards).',
      inputSchema: { scan_id: scanIdSchema, finding_id: z.string().max(64).describe('The finding id (finding_id) from scan_url or get_scan_findings') },
      annotations: { readOnlyHint: true },
    },
    (args) => answer(logger, 'explain_finding', () => explainTool(deps, owner, args)),
  );
  server.registerTool(
    'list_projects',
    {
      title: 'List your projects',
      description:
        'Your vibeeval projects (each a site scanned before), newest first: id, url, name and the last scan (id, state, grade, time). Pass next_cursor as cursor for the next page.',
      inputSchema: { cursor: z.string().max(200).optional().describe('next_cursor from the previous call') },
      annotations: { readOnlyHint: true },
    },
    (args) => answer(logger, 'list_projects', () => projectsTool(deps, owner, args)),
  );
  server.registerTool(
    'list_decisions',
    {
      title: "List a project's triage decisions",
      description:
        'The findings of a project that a person marked as a false positive or an accepted risk (left out of the score and counts), latest first: finding id, decision, expiry, who, when and why. Pass next_cursor as cursor for more.',
      inputSchema: {
        project_id: z.string().max(100).describe('The project id (from list_projects)'),
        cursor: z.string().max(200).optional().describe('next_cursor from the previous call'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) => answer(logger, 'list_decisions', () => decisionsTool(deps, owner, args)),
  );
  server.registerTool(
    'set_decision',
    {
      title: 'Mark a finding as a false positive or an accepted risk, or reopen it',
      description:
        "Only when the person you work for asks for it: marks a finding of a project as false_positive or accepted_risk (a reason is required; expires_at, a date, only for accepted_risk), or reopens it (decision reopen). The decision carries over to later scans and is recorded with the API key's member as its author. Never use it to make a finding go away instead of fixing it.",
      inputSchema: {
        project_id: z.string().max(100).describe('The project id (from list_projects)'),
        finding_id: z.string().max(64).describe('The finding id (finding_id) from get_scan_findings'),
        decision: z.enum([...DECISIONS, 'reopen']).describe('false_positive, accepted_risk, or reopen'),
        reason: z.string().max(1000).optional().describe('Why, in the words of the person who decided (required unless reopening)'),
        expires_at: z.string().max(40).optional().describe('accepted_risk only: the date (YYYY-MM-DD) after which the finding counts again'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    (args) => answer(logger, 'set_decision', () => setDecisionTool(deps, owner, args)),
  );
  return server;
}

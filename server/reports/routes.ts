import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAGE_SIZES, pageQuerySchema } from '../../common/pagination';
import { generateReportBodySchema, type ReportType } from '../../common/projects';
import { findingTally, scanResultSchema, type ScanResult, type SeverityCounts } from '../../common/scan';
import { isReportFormat, renderReport, REPORT_MEDIA, reportFileName, PdfBrowserMissingError, type ReportChanges, type ReportFormat } from '../../engine/report/index';
import { changesSincePrevious, reportChanges } from '../scan-history/changes';
import type { Db } from '../db';
import { reports, scans } from '../db/schema';
import type { Jobs } from '../jobs/queue';
import type { LiveBus } from '../live/bus';
import { isUuid, type ProjectService } from '../projects/service';
import { requestActor } from '../workspaces/actor';
import { cursorTimestampSql, decodeCursor, pageOf, setNextPage } from '../pagination';
import type { PlanGate } from '../billing/plan-gate';
import type { ReportLinks } from './links';
import { previewPage } from './preview-page';
import { reportLinkFor, reportStatusFor } from './status';
import { HttpError } from '../http-errors';

type ReportRow = typeof reports.$inferSelect;

export interface ReportRouteDeps {
  db: Db;
  projects: ProjectService;
  jobs: Jobs;
  live: LiveBus;
  links: ReportLinks;
  /** Renders a non-security report (performance, accessibility, analytics) from its stored content. */
  renderAudit?: (type: Exclude<ReportType, 'security'>, content: unknown, format: ReportFormat) => Promise<Buffer | string>;
  /** The report formats of the report owner's plan (Basic: HTML only); every format when absent. */
  plan?: Pick<PlanGate, 'planOf' | 'assertReportFormat'>;
}

const idParams = z.object({ id: z.string() });
const reportLinksQuerySchema = pageQuerySchema(PAGE_SIZES.reportLinks);

/** Reports of the request's workspace: recent links, generation and status. */
export function reportRoutes({ db, projects, jobs, live, links }: ReportRouteDeps) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.get('/report_links/recent', { schema: { querystring: reportLinksQuerySchema } }, async (request, reply) => {
      const { limit, cursor } = request.query;
      const after = decodeCursor(cursor);
      const mine = and(eq(reports.workspaceId, requestActor(request).workspaceId), eq(reports.state, 'completed'));
      const rows = await db
        .select({ row: reports, counts: scans.counts, sortAt: sql<string>`${sql.raw(cursorTimestampSql('"reports"."created_at"'))}` })
        .from(reports)
        .leftJoin(scans, eq(scans.id, reports.scanId))
        .where(after ? and(mine, sql`(${reports.createdAt}, ${reports.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`) : mine)
        .orderBy(desc(reports.createdAt), desc(reports.id))
        .limit(limit + 1);
      const page = pageOf(rows, limit, ({ row, sortAt }) => ({ at: sortAt, id: row.id }));
      setNextPage(request, reply, page.next);
      return page.items.map(({ row, counts }) => reportLinkFor(row, links, counts));
    });

    app.post('/reports', { schema: { body: generateReportBodySchema }, config: { creationLimit: 'report' } }, async (request, reply) => {
      const actor = requestActor(request);
      const project = await projects.row(actor, request.body.project_id);
      const owner = { userId: actor.userId, workspaceId: project.workspaceId, projectId: project.id, url: project.url };
      const type = request.body.type;
      let row: ReportRow;
      let counts: ScanCounts = null;
      if (type === 'security') {
        // The security report is the latest scan's; with none finished yet, a scan is started and the report waits for it.
        const [done] = await db
          .select({ id: scans.id })
          .from(scans)
          .where(and(eq(scans.projectId, project.id), eq(scans.state, 'completed')))
          .orderBy(desc(scans.finishedAt))
          .limit(1);
        if (done) {
          counts = await countsOf(db, done.id);
          [row] = (await db
            .insert(reports)
            .values({ ...owner, scanId: done.id, type, state: 'completed', totalIssues: counts && findingTally(counts).issues, finishedAt: new Date() })
            .returning()) as [ReportRow];
        } else {
          let scanId: string;
          try {
            const scan = await projects.queueScan(actor, project.id, 'manual');
            scanId = scan.id;
            await jobs.enqueueScan(scan.id);
          } catch (error) {
            if (!(error instanceof HttpError) || error.statusCode !== 409) throw error;
            const [active] = await db
              .select({ id: scans.id })
              .from(scans)
              .where(eq(scans.projectId, project.id))
              .orderBy(desc(scans.queuedAt))
              .limit(1);
            scanId = active!.id;
          }
          [row] = (await db.insert(reports).values({ ...owner, scanId, type, state: 'queued' }).returning()) as [ReportRow];
        }
      } else {
        [row] = (await db.insert(reports).values({ ...owner, type, state: 'queued' }).returning()) as [ReportRow];
        await jobs.enqueueReport(row.id);
      }
      const status = reportStatusFor(row, links, counts);
      await live.publish(project.workspaceId, { type: 'report.state', report: status });
      return reply.code(row.state === 'completed' ? 201 : 202).send(status);
    });

    app.get('/reports/:id', { schema: { params: idParams } }, async (request) => {
      const row = await workspaceReport(db, requestActor(request).workspaceId, request.params.id);
      return reportStatusFor(row, links, row.scanId ? await countsOf(db, row.scanId) : null);
    });
  };
}

type ScanCounts = Partial<SeverityCounts> | null;

/** A scan's counts by severity: null until it is done. */
async function countsOf(db: Db, scanId: string): Promise<ScanCounts> {
  const [scan] = await db.select({ counts: scans.counts }).from(scans).where(eq(scans.id, scanId));
  return scan?.counts ?? null;
}

async function workspaceReport(db: Db, workspaceId: string, id: string): Promise<ReportRow> {
  if (!isUuid(id)) throw new HttpError(404, 'Report not found');
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.id, id), eq(reports.workspaceId, workspaceId)));
  if (!row) throw new HttpError(404, 'Report not found');
  return row;
}

/** The report's own pages, opened through signed links: no bearer token, a CSP of their own, framable by the app. */
export function publicReportRoutes({ db, links, renderAudit, plan }: Pick<ReportRouteDeps, 'db' | 'links' | 'renderAudit' | 'plan'>, frameAncestors: string[]) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const signed = z.object({ exp: z.string().optional(), sig: z.string().optional() });

    const deny = (reply: FastifyReply, reason: 'expired' | 'invalid') =>
      reply
        .code(403)
        .type('text/plain; charset=utf-8')
        .send(reason === 'expired' ? 'This report link has expired. Open the report again from vibeeval to get a new link.' : 'This report link is not valid.');

    const load = async (id: string) => {
      const [row] = isUuid(id) ? await db.select().from(reports).where(eq(reports.id, id)) : [];
      if (!row || row.state !== 'completed') return undefined;
      let result: ScanResult | undefined;
      let changes: ReportChanges | undefined;
      if (row.type === 'security' && row.scanId) {
        const [scan] = await db.select({ id: scans.id, projectId: scans.projectId, finishedAt: scans.finishedAt, result: scans.result }).from(scans).where(eq(scans.id, row.scanId));
        const parsed = scanResultSchema.safeParse(scan?.result);
        if (scan && parsed.success) {
          result = parsed.data;
          // What changed since the project's previous scan: the reports' 'Since the previous scan'.
          changes = reportChanges(await changesSincePrevious(db, scan, parsed.data));
        }
      }
      return { row, result, changes };
    };

    const render = async (row: ReportRow, result: ScanResult | undefined, format: ReportFormat, changes?: ReportChanges): Promise<Buffer | string | undefined> => {
      if (row.type === 'security') return result ? renderReport(result, format, {}, changes) : undefined;
      if (!renderAudit || !row.content) return undefined;
      return renderAudit(row.type, row.content, format);
    };

    const framePolicy = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self' ${frameAncestors.join(' ')}`.trim();

    app.get('/reports/:id/view', { schema: { params: idParams, querystring: signed } }, async (request, reply) => {
      const verdict = links.signer.verify('report', request.params.id, request.query.exp, request.query.sig);
      if (verdict !== 'ok') return deny(reply, verdict);
      const found = await load(request.params.id);
      const html = found && (await render(found.row, found.result, 'html', found.changes));
      if (!html) return reply.code(404).type('text/plain; charset=utf-8').send('This report is no longer available.');
      // The app frames the report (the web app on this origin, the desktop app from app://): no X-Frame-Options.
      reply.removeHeader('x-frame-options');
      return reply
        .header('content-security-policy', framePolicy)
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(html);
    });

    app.get(
      '/reports/:id/export/:format',
      { schema: { params: z.object({ id: z.string(), format: z.string() }), querystring: signed } },
      async (request, reply) => {
        const verdict = links.signer.verify('report', request.params.id, request.query.exp, request.query.sig);
        if (verdict !== 'ok') return deny(reply, verdict);
        const format = request.params.format;
        if (!isReportFormat(format)) return reply.code(404).send({ detail: `Unknown format '${format}': html, pdf, csv, json or sarif.` });
        const found = await load(request.params.id);
        if (!found) return reply.code(404).send({ detail: 'This report is no longer available.' });
        if (format === 'sarif' && found.row.type !== 'security') return reply.code(404).send({ detail: 'SARIF is available for security reports only.' });
        // The link is signed for the report, not for a format: its workspace's plan decides which formats it yields.
        await plan?.assertReportFormat(found.row.workspaceId, format);
        let body: Buffer | string | undefined;
        try {
          body = await render(found.row, found.result, format, found.changes);
        } catch (error) {
          if (error instanceof PdfBrowserMissingError) return reply.code(503).send({ detail: error.message });
          throw error;
        }
        if (body === undefined) return reply.code(404).send({ detail: 'This report is no longer available.' });
        const name = found.result
          ? reportFileName(found.result, format)
          : `vibeeval-${found.row.type}-${found.row.createdAt.toISOString().slice(0, 10)}${REPORT_MEDIA[format].extension}`;
        return reply
          .header('content-disposition', `attachment; filename="${name}"`)
          .header('cache-control', 'private, no-store')
          .type(REPORT_MEDIA[format].contentType)
          .send(body);
      },
    );

    app.get('/report-preview', { schema: { querystring: z.object({ signed_url: z.string().max(4_000).optional() }) } }, async (request, reply) => {
      const raw = request.query.signed_url;
      let url: URL | undefined;
      try {
        url = raw ? new URL(raw, 'http://placeholder.invalid') : undefined;
      } catch {
        url = undefined;
      }
      const id = url && /^\/reports\/([0-9a-f-]{36})\/view$/i.exec(url.pathname)?.[1];
      if (!url || !id) return deny(reply, 'invalid');
      const exp = url.searchParams.get('exp') ?? '';
      const sig = url.searchParams.get('sig') ?? '';
      const verdict = links.signer.verify('report', id, exp, sig);
      if (verdict !== 'ok') return deny(reply, verdict);
      const found = await load(id);
      if (!found) return reply.code(404).type('text/plain; charset=utf-8').send('This report is no longer available.');
      const view = `/reports/${id}/view?exp=${exp}&sig=${encodeURIComponent(sig)}`;
      const kinds: ReportFormat[] = found.row.type === 'security' ? ['html', 'pdf', 'csv', 'json', 'sarif'] : ['html', 'pdf', 'csv', 'json'];
      const allowed = plan ? (await plan.planOf(found.row.workspaceId)).limits.reportFormats : kinds;
      const formats = kinds.filter((format) => allowed.includes(format));
      const html = previewPage({
        title: `${found.row.type[0]!.toUpperCase()}${found.row.type.slice(1)} report`,
        target: found.row.url,
        createdAt: found.row.createdAt,
        totalIssues: found.row.totalIssues,
        viewUrl: view,
        exports: formats.map((format) => ({ format, url: `/reports/${id}/export/${format}?exp=${exp}&sig=${encodeURIComponent(sig)}` })),
      });
      return reply
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(html);
    });
  };
}

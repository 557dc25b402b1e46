import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAGE_SIZES, pageQuerySchema } from '../../common/pagination';
import { generateReportBodySchema } from '../../common/projects';
import { isReportFormat, reportFileName, PdfBrowserMissingError, REPORT_MEDIA, type ReportFormat } from '../../engine/report/index';
import type { PlanGate } from '../billing/plan-gate';
import { setNextPage } from '../pagination';
import { requestActor } from '../workspaces/actor';
import { previewPage } from './preview-page';
import { ReportService, type ReportServiceDeps } from './service';

export interface ReportRouteDeps extends ReportServiceDeps {
  /** The report formats of the report owner's plan (Basic: HTML only); every format when absent. */
  plan?: Pick<PlanGate, 'planOf' | 'assertReportFormat'>;
}

const idParams = z.object({ id: z.string() });
const reportLinksQuerySchema = pageQuerySchema(PAGE_SIZES.reportLinks);

/** Reports of the request's workspace: recent links, generation and status. */
export function reportRoutes(deps: ReportRouteDeps) {
  const service = new ReportService(deps);
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.get('/report_links/recent', { schema: { querystring: reportLinksQuerySchema } }, async (request, reply) => {
      const page = await service.recentLinks(requestActor(request).workspaceId, request.query);
      setNextPage(request, reply, page.next);
      return page.items;
    });

    app.post('/reports', { schema: { body: generateReportBodySchema }, config: { creationLimit: 'report' } }, async (request, reply) => {
      const { status, completed } = await service.create(requestActor(request), request.body);
      return reply.code(completed ? 201 : 202).send(status);
    });

    app.get('/reports/:id', { schema: { params: idParams } }, async (request) => service.status(requestActor(request).workspaceId, request.params.id));
  };
}

/** The report's own pages, opened through signed links: no bearer token, a CSP of their own, framable by the app. */
export function publicReportRoutes(deps: ReportRouteDeps, frameAncestors: string[]) {
  const { links, plan } = deps;
  const service = new ReportService(deps);
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const signed = z.object({ exp: z.string().optional(), sig: z.string().optional() });

    const deny = (reply: FastifyReply, reason: 'expired' | 'invalid') =>
      reply
        .code(403)
        .type('text/plain; charset=utf-8')
        .send(reason === 'expired' ? 'This report link has expired. Open the report again from vibeeval to get a new link.' : 'This report link is not valid.');

    const framePolicy = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self' ${frameAncestors.join(' ')}`.trim();

    app.get('/reports/:id/view', { schema: { params: idParams, querystring: signed } }, async (request, reply) => {
      const verdict = links.signer.verify('report', request.params.id, request.query.exp, request.query.sig);
      if (verdict !== 'ok') return deny(reply, verdict);
      const found = await service.signed(request.params.id);
      const html = found && (await service.render(found, 'html'));
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

    app.get('/reports/:id/export/:format', { schema: { params: z.object({ id: z.string(), format: z.string() }), querystring: signed } }, async (request, reply) => {
      const verdict = links.signer.verify('report', request.params.id, request.query.exp, request.query.sig);
      if (verdict !== 'ok') return deny(reply, verdict);
      const format = request.params.format;
      if (!isReportFormat(format)) return reply.code(404).send({ detail: `Unknown format '${format}': html, pdf, csv, json or sarif.` });
      const found = await service.signed(request.params.id);
      if (!found) return reply.code(404).send({ detail: 'This report is no longer available.' });
      if (format === 'sarif' && found.row.type !== 'security') return reply.code(404).send({ detail: 'SARIF is available for security reports only.' });
      // The link is signed for the report, not for a format: its workspace's plan decides which formats it yields.
      await plan?.assertReportFormat(found.row.workspaceId, format);
      let body: Buffer | string | undefined;
      try {
        body = await service.render(found, format);
      } catch (error) {
        if (error instanceof PdfBrowserMissingError) return reply.code(503).send({ detail: error.message });
        throw error;
      }
      if (body === undefined) return reply.code(404).send({ detail: 'This report is no longer available.' });
      const name = found.result
        ? reportFileName(found.result, format)
        : `vibeeval-${found.row.type}-${found.row.createdAt.toISOString().slice(0, 10)}${REPORT_MEDIA[format].extension}`;
      return reply.header('content-disposition', `attachment; filename="${name}"`).header('cache-control', 'private, no-store').type(REPORT_MEDIA[format].contentType).send(body);
    });

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
      const found = await service.signed(id);
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
        .header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        )
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(html);
    });
  };
}

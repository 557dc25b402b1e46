import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUBLIC_SCAN_PATH } from '../../common/marketing';
import { publicScanAcceptedSchema, publicScanRequestSchema } from '../../common/public-scan';
import { scanResultSchema } from '../../common/scan';
import { renderReport } from '../../engine/report/index';
import { urlRefusal } from '../../engine/retrieval/address-policy';
import type { AddressPolicy } from '../../engine/scan';
import type { LinkSigner } from '../reports/signing';
import { detailErrorHandler } from '../http-errors';
import type { PublicScanService } from './service';

const PUBLIC_REPORT_PURPOSE = 'public-scan';

/** The signed link (7 days) to a public scan's report, as sent in its mail. */
export function publicReportLink(signer: LinkSigner, origin: string, id: string): string {
  const { exp, sig } = signer.sign(PUBLIC_REPORT_PURPOSE, id);
  return `${origin}${PUBLIC_SCAN_PATH}/${id}/report?exp=${exp}&sig=${sig}`;
}

export interface PublicScanRouteDeps {
  service: PublicScanService;
  signer: LinkSigner;
  policy: AddressPolicy;
  enqueue: (id: string) => Promise<void>;
}

const idParams = z.object({ id: z.uuid() });
const signedQuery = z.object({ exp: z.string().optional(), sig: z.string().optional() });

function detail(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ detail: message });
}

/**
 * The public site's scan call (spec section 7): POST /v2/vibe-scanner {url, email} queues a real quick scan whose
 * report is mailed to the address; GET /v2/vibe-scanner/{id}/report serves that report to whoever holds the
 * signed link from the mail.
 */
export function publicScanRoutes({ service, signer, policy, enqueue }: PublicScanRouteDeps) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.setErrorHandler(detailErrorHandler);

    app.post(PUBLIC_SCAN_PATH, { schema: { body: publicScanRequestSchema, response: { 202: publicScanAcceptedSchema } } }, async (request, reply) => {
      const { url, email } = request.body;
      // A literal private address (or localhost, which never needs DNS) is refused now, with the reason; other host
      // names are checked when connecting, so that an anonymous request never waits on DNS here.
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      if (/^[\d.]+$|:|(?:^|\.)localhost\.?$/i.test(host)) {
        const refusal = await urlRefusal(policy, url, new Map());
        if (refusal) return detail(reply, 400, refusal);
      }
      const { id } = await service.request(url, email, request.ip);
      await enqueue(id);
      return reply.code(202).send({ id, status: 'queued' as const, message: 'The scan is queued; the report will be sent to your email.' });
    });

    app.get(`${PUBLIC_SCAN_PATH}/:id/report`, { schema: { params: idParams, querystring: signedQuery } }, async (request, reply) => {
      const verdict = signer.verify(PUBLIC_REPORT_PURPOSE, request.params.id, request.query.exp, request.query.sig);
      if (verdict !== 'ok') return detail(reply, 403, verdict === 'expired' ? 'This report link has expired.' : 'This report link is not valid.');
      const row = await service.get(request.params.id);
      if (!row) return detail(reply, 404, 'Report not found');
      if (row.state === 'failed') return detail(reply, 422, row.error ?? 'The scan failed.');
      if (row.state !== 'completed' || !row.result) return detail(reply, 409, 'The scan has not finished yet. Try again in a minute.');
      const html = await renderReport(scanResultSchema.parse(row.result), 'html');
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        .send(html);
    });
  };
}

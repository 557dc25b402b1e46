import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import source from './latest.js?raw';

/** The monitoring script as served: its text, the compressed forms computed once, and its version. */
export interface MonitorScript {
  readonly body: Buffer;
  readonly gzip: Buffer;
  readonly brotli: Buffer;
  /** Strong ETag: a hash of the content, so a fixed script reaches sites as soon as their cache expires. */
  readonly etag: string;
}

export function buildMonitorScript(text: string = source): MonitorScript {
  const body = Buffer.from(text, 'utf8');
  return {
    body,
    gzip: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`,
  };
}

/** Which encoding to answer with: brotli, then gzip, when the client accepts it (q=0 refuses). */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
      .map(([name]) => name),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

function sendScript(script: MonitorScript, request: FastifyRequest, reply: FastifyReply) {
  reply
    .header('content-type', 'application/javascript; charset=utf-8')
    .header('etag', script.etag)
    // Short: a fix reaches every site within five minutes.
    .header('cache-control', 'public, max-age=300')
    .header('vary', 'accept-encoding')
    // Sites load it from their own origin: a cross-origin <script> must be allowed to embed it.
    .header('cross-origin-resource-policy', 'cross-origin');
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === script.etag)) return reply.code(304).send();
  const encoding = pickEncoding(request.headers['accept-encoding']);
  if (encoding === 'br') return reply.header('content-encoding', 'br').send(script.brotli);
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(script.gzip);
  return reply.send(script.body);
}

/** GET /latest.js: the monitoring script a site embeds with `<script src=".../latest.js" data-site="vst_..." async>`. */
export function monitorScriptRoutes(script: MonitorScript = buildMonitorScript()) {
  return async (app: FastifyInstance) => {
    app.get('/latest.js', async (request, reply) => sendScript(script, request, reply));
  };
}

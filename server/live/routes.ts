import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LiveMessage } from '../../common/projects';
import { userOf } from '../auth/guard';
import type { LinkSigner } from '../reports/signing';
import type { LiveBus } from './bus';

const TICKET_TTL_SECONDS = 60;
const PING_MS = 20_000;

/** POST /live/ticket: EventSource cannot send an Authorization header, so the stream is opened with a short-lived ticket. */
export function liveTicketRoutes(signer: LinkSigner) {
  return async (scope: FastifyInstance) => {
    scope.post('/live/ticket', { config: { creationLimit: 'live_ticket' } }, async (request) => {
      const user = userOf(request);
      const { exp, sig } = signer.sign('live', user.id, Date.now(), TICKET_TTL_SECONDS);
      return { ticket: `${user.id}.${exp}.${sig}`, expires_in: TICKET_TTL_SECONDS };
    });
  };
}

/** GET /live?ticket=...: the signed-in user's events and scan progress as server-sent events. */
export function liveStreamRoutes(signer: LinkSigner, bus: LiveBus) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const open = new Set<FastifyReply>();
    app.addHook('preClose', async () => {
      for (const reply of open) reply.raw.end();
    });

    app.get('/live', { schema: { querystring: z.object({ ticket: z.string().max(300).optional() }) } }, async (request, reply) => {
      const [userId = '', exp, sig] = (request.query.ticket ?? '').split('.');
      const verdict = signer.verify('live', userId, exp, sig);
      if (verdict !== 'ok') return reply.code(401).send({ detail: verdict === 'expired' ? 'The live ticket has expired; ask for a new one.' : 'Authentication required' });

      reply.hijack();
      const raw = reply.raw;
      // Headers set by earlier hooks (CORS for the desktop app's origin, security headers) go out with the stream.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write('retry: 3000\n\n');
      const send = (message: LiveMessage) => raw.write(`event: ${message.type}\ndata: ${JSON.stringify(message)}\n\n`);
      const unsubscribe = bus.subscribe(userId, send);
      const ping = setInterval(() => raw.write(': ping\n\n'), PING_MS);
      open.add(reply);
      request.raw.on('close', () => {
        clearInterval(ping);
        unsubscribe();
        open.delete(reply);
      });
    });
  };
}

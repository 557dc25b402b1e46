import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LiveMessage } from '../../common/projects';
import { WORKSPACE_TEXTS } from '../../common/workspaces';
import type { LinkSigner } from '../reports/signing';
import type { WorkspaceAccess } from '../workspaces/access';
import { requestActor } from '../workspaces/actor';
import type { LiveBus } from './bus';

const TICKET_TTL_SECONDS = 60;
const PING_MS = 20_000;
/**
 * How often an open stream checks that its user is still a member when no message comes: a removed member's stream
 * ends within this time plus the membership cache's second (every message is checked before it goes out anyway).
 */
const MEMBERSHIP_RECHECK_MS = 2_000;

/** What a live ticket signs: the workspace whose messages it opens, for the member it was given to. */
const ticketSubject = (workspaceId: string, userId: string) => `${workspaceId}:${userId}`;

/** POST /live/ticket: EventSource cannot send an Authorization header, so the stream is opened with a short-lived ticket. */
export function liveTicketRoutes(signer: LinkSigner) {
  return async (scope: FastifyInstance) => {
    scope.post('/live/ticket', { config: { creationLimit: 'live_ticket' } }, async (request) => {
      const { workspaceId, userId } = requestActor(request);
      const { exp, sig } = signer.sign('live', ticketSubject(workspaceId, userId), Date.now(), TICKET_TTL_SECONDS);
      return { ticket: `${workspaceId}.${userId}.${exp}.${sig}`, expires_in: TICKET_TTL_SECONDS };
    });
  };
}

/**
 * GET /live?ticket=...: the messages of the ticket's workspace (its members' events, scan progress, reports) as
 * server-sent events. The ticket only proves membership when it was given: the stream asks WorkspaceAccess again
 * before each message and every few seconds, and ends once its user is no longer a member.
 */
export function liveStreamRoutes(signer: LinkSigner, bus: LiveBus, access: Pick<WorkspaceAccess, 'membership'>) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const open = new Set<FastifyReply>();
    app.addHook('preClose', async () => {
      for (const reply of open) reply.raw.end();
    });

    app.get('/live', { schema: { querystring: z.object({ ticket: z.string().max(300).optional() }) } }, async (request, reply) => {
      const [workspaceId = '', userId = '', exp, sig] = (request.query.ticket ?? '').split('.');
      const verdict = signer.verify('live', ticketSubject(workspaceId, userId), exp, sig);
      if (verdict !== 'ok') return reply.code(401).send({ detail: verdict === 'expired' ? 'The live ticket has expired; ask for a new one.' : 'Authentication required' });
      // The last answer is kept when the database cannot be asked (no message travels then either).
      let member = (await access.membership(userId, workspaceId)) !== null;
      if (!member) return reply.code(404).send({ detail: WORKSPACE_TEXTS.notFound });
      const stillMember = async () => (member = await access.membership(userId, workspaceId).then((found) => found !== null, () => member));

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
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        raw.end();
      };
      // One check at a time, in arrival order, so messages keep their order.
      let checks = Promise.resolve();
      const whileMember = (then: () => void) => {
        checks = checks.then(async () => {
          if (ended) return;
          if (await stillMember()) then();
          else end();
        });
      };
      const send = (message: LiveMessage) => whileMember(() => raw.write(`event: ${message.type}\ndata: ${JSON.stringify(message)}\n\n`));
      const unsubscribe = bus.subscribe(workspaceId, send);
      const ping = setInterval(() => raw.write(': ping\n\n'), PING_MS);
      const recheck = setInterval(() => whileMember(() => undefined), MEMBERSHIP_RECHECK_MS);
      open.add(reply);
      request.raw.on('close', () => {
        ended = true;
        clearInterval(ping);
        clearInterval(recheck);
        unsubscribe();
        open.delete(reply);
      });
    });
  };
}

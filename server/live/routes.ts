import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LiveMessage } from '../../common/projects';
import { WORKSPACE_TEXTS } from '../../common/workspaces';
import { endsSession, type SessionEnds } from '../auth/session-ends';
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
/**
 * How often an open stream checks that its session still exists. The news of a session's end closes it at once
 * (SessionEnds, on every instance); this recheck covers news missed while the database's notifications were down.
 */
const SESSION_RECHECK_MS = 10_000;

/** A ticket's contents: the workspace whose messages it opens, for the member and session it was given to. */
interface Ticket {
  workspaceId: string;
  userId: string;
  /** The local session that asked for it ('' for a hosted account's token, whose sessions are not known here). */
  sessionId: string;
  /** When the asking access token expired (seconds since the epoch; 0 when it did not say): the stream ends then. */
  until: number;
}

const ticketSubject = (t: Ticket) => `${t.workspaceId}:${t.userId}:${t.sessionId}:${t.until}`;

function readTicket(value: string | undefined): { ticket: Ticket; exp?: string; sig?: string } {
  const [workspaceId = '', userId = '', sessionId = '', until = '', exp, sig] = (value ?? '').split('.');
  return { ticket: { workspaceId, userId, sessionId, until: /^\d{1,12}$/.test(until) ? Number(until) : -1 }, exp, sig };
}

/** POST /live/ticket: EventSource cannot send an Authorization header, so the stream is opened with a short-lived ticket. */
export function liveTicketRoutes(signer: LinkSigner) {
  return async (scope: FastifyInstance) => {
    scope.post('/live/ticket', { config: { creationLimit: 'live_ticket' } }, async (request) => {
      const { workspaceId, userId } = requestActor(request);
      const user = request.user;
      const ticket: Ticket = { workspaceId, userId, sessionId: (user?.source === 'local' && user.sessionId) || '', until: user?.expiresAt ?? 0 };
      const { exp, sig } = signer.sign('live', ticketSubject(ticket), Date.now(), TICKET_TTL_SECONDS);
      return { ticket: `${workspaceId}.${userId}.${ticket.sessionId}.${ticket.until}.${exp}.${sig}`, expires_in: TICKET_TTL_SECONDS };
    });
  };
}

/** What the stream asks of the sessions: whether one still exists, and the news of their ends. */
export interface LiveSessions {
  alive(userId: string, sessionId: string): Promise<boolean>;
  ends: SessionEnds;
}

/**
 * GET /live?ticket=...: the messages of the ticket's workspace (its members' events, scan progress, reports) as
 * server-sent events. The ticket only proves membership and a live session when it was given: the stream asks
 * WorkspaceAccess again before each message and every few seconds, and ends once its user is no longer a member,
 * once its session ends (signed out, its user's password changed, the account deleted), and when the access token
 * that asked for the ticket expires (the client asks again with its refreshed token).
 */
export function liveStreamRoutes(signer: LinkSigner, bus: LiveBus, access: Pick<WorkspaceAccess, 'membership'>, sessions: LiveSessions) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const open = new Set<FastifyReply>();
    app.addHook('preClose', async () => {
      for (const reply of open) reply.raw.end();
    });

    app.get('/live', { schema: { querystring: z.object({ ticket: z.string().max(300).optional() }) } }, async (request, reply) => {
      const { ticket, exp, sig } = readTicket(request.query.ticket);
      const { workspaceId, userId, sessionId, until } = ticket;
      const verdict = until < 0 ? 'invalid' : signer.verify('live', ticketSubject(ticket), exp, sig);
      if (verdict !== 'ok') return reply.code(401).send({ detail: verdict === 'expired' ? 'The live ticket has expired; ask for a new one.' : 'Authentication required' });
      const sessionAlive = () => (sessionId ? sessions.alive(userId, sessionId) : Promise.resolve(true));
      if ((until && until * 1000 <= Date.now()) || !(await sessionAlive())) return reply.code(401).send({ detail: 'Authentication required' });
      // The last answer is kept when the database cannot be asked (no message travels then either).
      let member = (await access.membership(userId, workspaceId)) !== null;
      if (!member) return reply.code(404).send({ detail: WORKSPACE_TEXTS.notFound });
      const stillMember = async () =>
        (member = await access.membership(userId, workspaceId).then(
          (found) => found !== null,
          () => member,
        ));
      streamTo(reply, ({ end, write }) => {
        // One check at a time, in arrival order, so messages keep their order.
        let checks = Promise.resolve();
        const whileMember = (then: () => void) => {
          checks = checks.then(async () => {
            if (await stillMember()) then();
            else end();
          });
        };
        const send = (message: LiveMessage) => whileMember(() => write(`event: ${message.type}\ndata: ${JSON.stringify(message)}\n\n`));
        const unsubscribe = bus.subscribe(workspaceId, send);
        const unwatch = sessions.ends.on((ended) => {
          if (endsSession(ended, userId, sessionId || undefined)) end();
        });
        const recheck = setInterval(() => whileMember(() => undefined), MEMBERSHIP_RECHECK_MS);
        const sessionCheck = setInterval(
          () =>
            void sessionAlive().then(
              (alive) => alive || end(),
              () => undefined,
            ),
          SESSION_RECHECK_MS,
        );
        // Capped at setTimeout's longest wait (a longer one fires at once); a hosted token may live that long.
        const expiry = until ? setTimeout(end, Math.min(until * 1000 - Date.now(), 2 ** 31 - 1)) : undefined;
        open.add(reply);
        return () => {
          clearInterval(recheck);
          clearInterval(sessionCheck);
          clearTimeout(expiry);
          unwatch();
          unsubscribe();
          open.delete(reply);
        };
      });
    });
  };
}

/**
 * Takes the reply over as a server-sent event stream: `start` subscribes and answers how to stop; it is given `end`,
 * which closes the stream (once), and `write`, which writes while it is open. Stopping happens when the connection
 * closes, whoever closed it.
 */
function streamTo(reply: FastifyReply, start: (stream: { end: () => void; write: (text: string) => void }) => () => void) {
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
  const write = (text: string) => {
    if (!ended) raw.write(text);
  };
  const stop = start({ end, write });
  const ping = setInterval(() => write(': ping\n\n'), PING_MS);
  // 'close' comes both when the client goes and after end().
  reply.request.raw.on('close', () => {
    ended = true;
    clearInterval(ping);
    stop();
  });
}

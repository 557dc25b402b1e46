import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, rawRequest, signUp } from '../testing/http';
import { startTestServer } from '../testing/test-server';

// GET /live ends with the session that asked for its ticket: a ticket of an ended session opens nothing, an open
// stream closes when its session is signed out (local or global), when its account is deleted, when its user's
// password changes (the changing session's own stream stays), and when the access token behind the ticket expires.

type Server = Awaited<ReturnType<typeof startTestServer>>;
type User = { token: string; id: string; email: string };

const call = (server: Server, token: string, method: string, path: string, body?: unknown) => callApi(server.origin, method, path, { token, body });

const ticketOf = async (server: Server, token: string) => {
  const answer = await call(server, token, 'POST', '/live/ticket');
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { ticket: string }).ticket;
};

/** An open stream: its text so far, a promise of its end, and a bounded wait for either. */
async function openStream(server: Server, ticket: string) {
  const controller = new AbortController();
  const response = await fetch(`${server.origin}/live?ticket=${ticket}`, { signal: controller.signal });
  expect(response.status).toBe(200);
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body!.getReader();
  let text = '';
  const readAll = async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += Buffer.from(value).toString();
    }
  };
  // The first chunk (`retry:`) is written once the stream has subscribed to its workspace and its session's end.
  const first = await reader.read();
  text += Buffer.from(first.value ?? []).toString();
  const ended = readAll().then(
    () => true,
    () => true,
  );
  /** Resolves true once the stream has ended, false when `ms` pass first. */
  const endsWithin = (ms: number) => Promise.race([ended, new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
  /** Resolves true once `marker` came through the stream, false when `ms` pass first. */
  const receives = async (marker: string, ms: number) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (text.includes(marker)) return true;
    }
    return false;
  };
  return { endsWithin, receives, close: () => controller.abort() };
}

describe('live streams end with their session', () => {
  let server: Server;
  let pool: pg.Pool;
  let probes = 0;

  beforeAll(async () => {
    server = await startTestServer({ VIBEEVAL_SCAN_CONCURRENCY: '0', SIGNIN_MAX_PER_EMAIL: '100', SIGNIN_MAX_PER_IP: '1000' });
    pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });

  /** Another session of the user (a second device). */
  const secondSession = async (user: User) => {
    const signIn = await rawRequest(server.origin, {
      method: 'POST',
      path: '/auth/v1/token?grant_type=password',
      headers: { 'content-type': 'application/json', apikey: 'local' },
      body: JSON.stringify({ email: user.email, password: 'secret123' }),
    });
    expect(signIn.status, signIn.text).toBe(200);
    return (signIn.json as { access_token: string }).access_token;
  };

  /** A message to the user's personal workspace from any process (as a worker's scan progress travels). */
  const publish = async (user: User) => {
    const marker = `probe-${++probes}`;
    await pool.query('select pg_notify($1, $2)', ['vibeeval_live', JSON.stringify({ w: user.id, m: { type: marker } })]);
    return marker;
  };

  it('refuses a ticket taken before a global sign-out', async () => {
    const user = await signUp(server.origin, 'live-ticket-global');
    const ticket = await ticketOf(server, user.token);
    expect((await call(server, user.token, 'POST', '/auth/v1/logout?scope=global', {})).status).toBe(204);
    expect((await fetch(`${server.origin}/live?ticket=${ticket}`)).status).toBe(401);
  });

  it("refuses a ticket of a session signed out locally, and takes one of the user's other session", async () => {
    const user = await signUp(server.origin, 'live-ticket-local');
    const other = await secondSession(user);
    const ticket = await ticketOf(server, user.token);
    const otherTicket = await ticketOf(server, other);
    expect((await call(server, user.token, 'POST', '/auth/v1/logout?scope=local', {})).status).toBe(204);
    expect((await fetch(`${server.origin}/live?ticket=${ticket}`)).status).toBe(401);
    const stream = await openStream(server, otherTicket);
    expect(await stream.receives(await publish(user), 5_000)).toBe(true);
    stream.close();
  });

  it("closes an open stream when its session signs out locally, and leaves the other session's open", async () => {
    const user = await signUp(server.origin, 'live-local');
    const other = await secondSession(user);
    const stream = await openStream(server, await ticketOf(server, user.token));
    const kept = await openStream(server, await ticketOf(server, other));
    expect((await call(server, user.token, 'POST', '/auth/v1/logout?scope=local', {})).status).toBe(204);
    expect(await stream.endsWithin(5_000)).toBe(true);
    expect(await kept.receives(await publish(user), 5_000)).toBe(true);
    kept.close();
  });

  it('closes every stream of the user on a global sign-out', async () => {
    const user = await signUp(server.origin, 'live-global');
    const other = await secondSession(user);
    const streams = [await openStream(server, await ticketOf(server, user.token)), await openStream(server, await ticketOf(server, other))];
    expect((await call(server, user.token, 'POST', '/auth/v1/logout?scope=global', {})).status).toBe(204);
    expect(await Promise.all(streams.map((stream) => stream.endsWithin(5_000)))).toEqual([true, true]);
  });

  it("closes the other sessions' streams on a password change, and keeps the changing session's", async () => {
    const user = await signUp(server.origin, 'live-password');
    const other = await secondSession(user);
    const mine = await openStream(server, await ticketOf(server, user.token));
    const theirs = await openStream(server, await ticketOf(server, other));
    expect((await call(server, user.token, 'PUT', '/auth/v1/user', { password: 'secret456' })).status).toBe(200);
    expect(await theirs.endsWithin(5_000)).toBe(true);
    expect(await mine.receives(await publish(user), 5_000)).toBe(true);
    mine.close();
  });

  it('closes the streams of a deleted account, and refuses its tickets', async () => {
    const user = await signUp(server.origin, 'live-deleted');
    const ticket = await ticketOf(server, user.token);
    const stream = await openStream(server, await ticketOf(server, user.token));
    expect((await call(server, user.token, 'DELETE', '/account', { email: user.email })).status).toBe(204);
    expect(await stream.endsWithin(5_000)).toBe(true);
    expect((await fetch(`${server.origin}/live?ticket=${ticket}`)).status).toBe(401);
  });

  it("closes a stream whose session was ended by another process (the database's news)", async () => {
    const user = await signUp(server.origin, 'live-elsewhere');
    const stream = await openStream(server, await ticketOf(server, user.token));
    // As another instance's sign-out does: the row goes, the trigger tells every process.
    await pool.query('delete from auth_sessions where user_id = $1', [user.id]);
    expect(await stream.endsWithin(5_000)).toBe(true);
  });
});

describe('live streams and the access token behind their ticket', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer({ VIBEEVAL_SCAN_CONCURRENCY: '0', JWT_EXPIRY: '5' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('ends the stream when the token that asked for its ticket expires', async () => {
    const user = await signUp(server.origin, 'live-expiry');
    const ticket = await ticketOf(server, user.token);
    const expiresAt = Number(ticket.split('.')[3]) * 1000;
    expect(expiresAt).toBeGreaterThan(Date.now());
    const stream = await openStream(server, ticket);
    expect(await stream.endsWithin(15_000)).toBe(true);
    // Not before the token's expiry (the clock's second rounds down in the token).
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt - 50);
  });
});

import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_LIMIT_TEXTS } from '../../common/plan-limits';
import { INVITATIONS_PER_HOUR, WORKSPACE_HEADER, WORKSPACE_TEXTS, type Invitation, type Workspace, type WorkspaceMember } from '../../common/workspaces';
import { callApi, signUp, type RawAnswer } from '../testing/http';
import { startSmtpCapture, startTestServer } from '../testing/test-server';

// The whole life of a team workspace on a real server (Basic for accounts without a subscription, Pro and
// Enterprise subscribed through the local billing API), with invitations mailed through a real SMTP server.

type User = Awaited<ReturnType<typeof signUp>>;

let server: Awaited<ReturnType<typeof startTestServer>>;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let pool: pg.Pool;
/** Every line the server logged. */
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpCapture();
  server = await startTestServer(
    { VIBEEVAL_UNSUBSCRIBED_TIER: 'basic', SMTP_URL: smtp.url, VIBEEVAL_SCAN_CONCURRENCY: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '0' },
    { logDestination: { write: (line: string) => void logLines.push(line) } },
  );
  pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
  await smtp?.close();
});

const call = (user: { token: string }, method: string, path: string, body?: unknown, workspace?: string) =>
  callApi(server.origin, method, path, { token: user.token, body, headers: workspace ? { [WORKSPACE_HEADER]: workspace } : {} });

const detailOf = (answer: RawAnswer) => (answer.json as { detail?: string }).detail;

async function subscribe(user: User, tier: 'pro' | 'enterprise') {
  const answer = await call(user, 'POST', '/subscription', { price_id: `price_local_${tier}_month` });
  expect(answer.status, answer.text).toBe(201);
  // The plan is cached for a second per workspace.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
}

async function createWorkspace(owner: User, name: string): Promise<Workspace> {
  const answer = await call(owner, 'POST', '/workspaces', { name });
  expect(answer.status, answer.text).toBe(201);
  return answer.json as Workspace;
}

/** Invites `email` and answers the token of the mailed link. */
async function invite(owner: User, workspaceId: string, email: string): Promise<string> {
  const answer = await call(owner, 'POST', `/workspace/${workspaceId}/invitations`, { email });
  expect(answer.status, answer.text).toBe(201);
  const mail = await smtp.next(email.toLowerCase());
  const token = /\/invite\?token=(vbi_[A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
  expect(token, mail.text).toBeDefined();
  return token!;
}

/** A Pro owner with a shared workspace and one member who joined through an invitation. */
async function team(label: string) {
  const owner = await signUp(server.origin, `${label}-owner`);
  await subscribe(owner, 'pro');
  const workspace = await createWorkspace(owner, `${label} team`);
  const member = await signUp(server.origin, `${label}-member`);
  const joined = await call(member, 'POST', '/invitations/accept', { token: await invite(owner, workspace.id, member.email) });
  expect(joined.status, joined.text).toBe(200);
  return { owner, member, workspace };
}

describe('workspaces', () => {
  it('creates a workspace, refuses a colleague on Basic, invites by mail on Pro, and the colleague joins once', async () => {
    const owner = await signUp(server.origin, 'life-owner');
    const colleague = await signUp(server.origin, 'life-colleague');
    const stranger = await signUp(server.origin, 'life-stranger');
    const agency = await createWorkspace(owner, '  Agency  ');
    expect(agency).toMatchObject({ name: 'Agency', personal: false, role: 'owner', owner_id: owner.id, tier: 'basic', seats: { used: 1, limit: 1 } });

    const listed = (await call(owner, 'GET', '/workspaces')).json as Workspace[];
    expect(listed.map((w) => [w.id, w.personal])).toEqual([
      [owner.id, true],
      [agency.id, false],
    ]);
    const firstPage = await call(owner, 'GET', '/workspaces?limit=1');
    expect((firstPage.json as Workspace[]).map((w) => w.id)).toEqual([owner.id]);
    const next = await rawHeader(owner, '/workspaces?limit=1');
    expect(next).not.toBe('');
    expect(((await call(owner, 'GET', `/workspaces?limit=1&cursor=${next}`)).json as Workspace[]).map((w) => w.id)).toEqual([agency.id]);

    const personal = await call(owner, 'POST', `/workspace/${owner.id}/invitations`, { email: colleague.email });
    expect([personal.status, detailOf(personal)]).toEqual([409, WORKSPACE_TEXTS.personalNotShared]);
    const basic = await call(owner, 'POST', `/workspace/${agency.id}/invitations`, { email: colleague.email });
    expect(basic.status).toBe(403);
    expect(basic.json).toEqual({ detail: PLAN_LIMIT_TEXTS.seats('basic', 1), plan_limit: 'seats', tier: 'basic' });

    await subscribe(owner, 'pro');
    const created = await call(owner, 'POST', `/workspace/${agency.id}/invitations`, { email: colleague.email.toUpperCase() });
    expect(created.status, created.text).toBe(201);
    const invitation = created.json as Invitation;
    expect(invitation.email).toBe(colleague.email);
    expect(Date.parse(invitation.expires_at) - Date.parse(invitation.created_at)).toBe(72 * 3600_000);
    const mail = await smtp.next(colleague.email);
    expect(mail.subject).toContain('Agency');
    expect(mail.text).toContain(owner.email);
    const token = /\/invite\?token=(vbi_[A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    expect(mail.text).toContain(`${server.origin}/invite?token=${token}`);
    // Only the SHA-256 of the secret is stored.
    const stored = (await pool.query<{ token_hash: string }>('select token_hash from workspace_invitations where id = $1', [invitation.id])).rows[0]!;
    expect(stored.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify((await pool.query('select * from workspace_invitations where id = $1', [invitation.id])).rows)).not.toContain(token.slice(4));

    expect(((await call(owner, 'GET', `/workspace/${agency.id}/invitations`)).json as Invitation[]).map((i) => i.id)).toEqual([invitation.id]);
    const again = await call(owner, 'POST', `/workspace/${agency.id}/invitations`, { email: colleague.email });
    expect([again.status, detailOf(again)]).toEqual([409, WORKSPACE_TEXTS.alreadyInvited]);
    expect(((await call(owner, 'GET', `/workspace/${agency.id}`)).json as Workspace).seats).toEqual({ used: 2, limit: 5 });

    const otherEmail = await call(stranger, 'POST', '/invitations/accept', { token });
    expect([otherEmail.status, detailOf(otherEmail)]).toEqual([403, WORKSPACE_TEXTS.invitationOtherEmail]);
    expect((await call(stranger, 'GET', `/workspace/${agency.id}`)).status).toBe(404);
    const preview = await call(colleague, 'POST', '/invitations/preview', { token });
    expect(preview.json).toEqual({ workspace_name: 'Agency', invited_by: owner.email, email: colleague.email, expires_at: invitation.expires_at });
    const joined = await call(colleague, 'POST', '/invitations/accept', { token });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.json).toMatchObject({ id: agency.id, role: 'member', tier: 'pro', seats: { used: 2, limit: 5 } });
    const replay = await call(colleague, 'POST', '/invitations/accept', { token });
    expect([replay.status, detailOf(replay)]).toEqual([410, WORKSPACE_TEXTS.invitationUsed]);
    expect((await call(colleague, 'POST', '/invitations/preview', { token })).status).toBe(410);

    const members = (await call(colleague, 'GET', `/workspace/${agency.id}/members`)).json as WorkspaceMember[];
    expect(members.map((m) => [m.user_id, m.role, m.email])).toEqual([
      [owner.id, 'owner', owner.email],
      [colleague.id, 'member', colleague.email],
    ]);
    const member = await call(owner, 'POST', `/workspace/${agency.id}/invitations`, { email: colleague.email });
    expect([member.status, detailOf(member)]).toEqual([409, WORKSPACE_TEXTS.alreadyMember]);
    expect((await call(colleague, 'GET', '/projects', undefined, agency.id)).status).toBe(200);
    for (const [method, path, body] of [
      ['PATCH', `/workspace/${agency.id}`, { name: 'Mine' }],
      ['DELETE', `/workspace/${agency.id}`, undefined],
      ['POST', `/workspace/${agency.id}/invitations`, { email: 'someone@example.com' }],
      ['GET', `/workspace/${agency.id}/invitations`, undefined],
      ['POST', `/workspace/${agency.id}/transfer`, { user_id: colleague.id }],
      ['DELETE', `/workspace/${agency.id}/members/${owner.id}`, undefined],
    ] as const) {
      const refused = await call(colleague, method, path, body);
      expect([refused.status, detailOf(refused)], `${method} ${path}`).toEqual([403, WORKSPACE_TEXTS.ownerOnly]);
    }
  }, 60_000);

  it('holds Pro to 5 seats counting open invitations; a revoked invitation frees its seat and its link dies', async () => {
    const { owner, workspace } = await team('seats');
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) tokens.push(await invite(owner, workspace.id, `seat-${i}-${Date.now()}@example.com`));
    const full = await call(owner, 'POST', `/workspace/${workspace.id}/invitations`, { email: 'one-too-many@example.com' });
    expect(full.json).toEqual({ detail: PLAN_LIMIT_TEXTS.seats('pro', 5), plan_limit: 'seats', tier: 'pro' });
    const open = await call(owner, 'GET', `/workspace/${workspace.id}/invitations?limit=2`);
    expect((open.json as Invitation[]).length).toBe(2);
    const nextCursor = await rawHeader(owner, `/workspace/${workspace.id}/invitations?limit=2`);
    expect(((await call(owner, 'GET', `/workspace/${workspace.id}/invitations?limit=2&cursor=${nextCursor}`)).json as Invitation[]).length).toBe(1);
    const first = (open.json as Invitation[])[0]!;
    expect((await call(owner, 'DELETE', `/workspace/${workspace.id}/invitations/${first.id}`)).status).toBe(204);
    expect(detailOf(await call(owner, 'DELETE', `/workspace/${workspace.id}/invitations/${first.id}`))).toBe(WORKSPACE_TEXTS.invitationNotFound);
    const invitee = await signUp(server.origin, 'seats-revoked');
    await pool.query('update workspace_invitations set email = $2 where id = $1', [first.id, invitee.email]);
    const dead = await call(invitee, 'POST', '/invitations/accept', { token: tokens[0] });
    expect([dead.status, detailOf(dead)]).toEqual([404, WORKSPACE_TEXTS.invitationInvalid]);
    await invite(owner, workspace.id, 'takes-the-freed-seat@example.com');
    expect(((await call(owner, 'GET', `/workspace/${workspace.id}`)).json as Workspace).seats).toEqual({ used: 5, limit: 5 });
  }, 60_000);

  it('refuses an expired invitation, and answers two accepts at once with one 200 and one 410', async () => {
    const owner = await signUp(server.origin, 'expiry-owner');
    await subscribe(owner, 'pro');
    const workspace = await createWorkspace(owner, 'Expiry');
    const late = await signUp(server.origin, 'expiry-late');
    const lateToken = await invite(owner, workspace.id, late.email);
    await pool.query(`update workspace_invitations set expires_at = now() - interval '1 second' where workspace_id = $1`, [workspace.id]);
    for (const path of ['/invitations/preview', '/invitations/accept']) {
      const expired = await call(late, 'POST', path, { token: lateToken });
      expect([expired.status, detailOf(expired)], path).toEqual([404, WORKSPACE_TEXTS.invitationInvalid]);
    }
    expect((await call(owner, 'GET', `/workspace/${workspace.id}/invitations`)).json).toEqual([]);
    const unknown = await call(late, 'POST', '/invitations/accept', { token: `vbi_${'A'.repeat(43)}` });
    expect([unknown.status, detailOf(unknown)]).toEqual([404, WORKSPACE_TEXTS.invitationInvalid]);

    // A new invitation to the same address replaces the expired one.
    const token = await invite(owner, workspace.id, late.email);
    const answers = await Promise.all([0, 1].map(() => call(late, 'POST', '/invitations/accept', { token })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
    const members = (await pool.query('select 1 from workspace_members where workspace_id = $1 and user_id = $2', [workspace.id, late.id])).rowCount;
    expect(members).toBe(1);
  }, 60_000);

  it('lets a member leave and the owner remove one: their access ends at once; owners and personal workspaces stay', async () => {
    const { owner, member, workspace } = await team('leave');
    expect(detailOf(await call(owner, 'POST', `/workspace/${workspace.id}/leave`))).toBe(WORKSPACE_TEXTS.ownerCannotLeave);
    expect(detailOf(await call(member, 'POST', `/workspace/${member.id}/leave`))).toBe(WORKSPACE_TEXTS.personalNotLeft);
    expect((await call(member, 'POST', `/workspace/${workspace.id}/leave`)).status).toBe(204);
    const gone = await call(member, 'GET', '/projects', undefined, workspace.id);
    expect([gone.status, detailOf(gone)]).toEqual([404, WORKSPACE_TEXTS.notFound]);
    expect((await call(member, 'GET', `/workspace/${workspace.id}`)).status).toBe(404);
    expect(((await call(member, 'GET', '/workspaces')).json as Workspace[]).map((w) => w.id)).toEqual([member.id]);

    const second = await signUp(server.origin, 'leave-removed');
    expect((await call(second, 'POST', '/invitations/accept', { token: await invite(owner, workspace.id, second.email) })).status).toBe(200);
    expect((await call(second, 'GET', '/projects', undefined, workspace.id)).status).toBe(200);
    expect(detailOf(await call(owner, 'DELETE', `/workspace/${workspace.id}/members/${owner.id}`))).toBe(WORKSPACE_TEXTS.ownerCannotLeave);
    expect(detailOf(await call(owner, 'DELETE', `/workspace/${workspace.id}/members/${member.id}`))).toBe(WORKSPACE_TEXTS.memberNotFound);
    expect((await call(owner, 'DELETE', `/workspace/${workspace.id}/members/${second.id}`)).status).toBe(204);
    // Refused within the membership cache's second on every instance; at once on this one.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const removed = await call(second, 'GET', '/projects', undefined, workspace.id);
    expect([removed.status, detailOf(removed)]).toEqual([404, WORKSPACE_TEXTS.notFound]);
  }, 60_000);

  it('transfers ownership in one step, only to a member whose plan holds the team', async () => {
    const { owner, member, workspace } = await team('transfer');
    const stranger = await signUp(server.origin, 'transfer-stranger');
    expect(detailOf(await call(owner, 'POST', `/workspace/${workspace.id}/transfer`, { user_id: stranger.id }))).toBe(WORKSPACE_TEXTS.transferToMember);
    // The member has no subscription: Basic, one seat, and the team has two members.
    const basic = await call(owner, 'POST', `/workspace/${workspace.id}/transfer`, { user_id: member.id });
    expect(basic.json).toEqual({ detail: PLAN_LIMIT_TEXTS.seats('basic', 1), plan_limit: 'seats', tier: 'basic' });
    await subscribe(member, 'pro');
    const moved = await call(owner, 'POST', `/workspace/${workspace.id}/transfer`, { user_id: member.id });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json).toMatchObject({ id: workspace.id, owner_id: member.id, role: 'member', tier: 'pro' });
    const owners = await pool.query<{ user_id: string }>(`select user_id from workspace_members where workspace_id = $1 and role = 'owner'`, [workspace.id]);
    expect(owners.rows).toEqual([{ user_id: member.id }]);
    expect(detailOf(await call(owner, 'PATCH', `/workspace/${workspace.id}`, { name: 'Taken back' }))).toBe(WORKSPACE_TEXTS.ownerOnly);
    const renamed = await call(member, 'PATCH', `/workspace/${workspace.id}`, { name: 'Renamed' });
    expect(renamed.json).toMatchObject({ name: 'Renamed', role: 'owner' });
    expect((await call(owner, 'POST', `/workspace/${workspace.id}/leave`)).status).toBe(204);
  }, 60_000);

  it('deletes a workspace with its records; the personal one stays', async () => {
    const { owner, member, workspace } = await team('delete');
    const project = await call(member, 'POST', '/project', { url: 'https://example.com/' }, workspace.id);
    expect(project.status, project.text).toBe(201);
    const projectId = (project.json as { id: string }).id;
    // Placed in the workspace directly: this test is about the workspace's deletion, not the project routes' scope.
    await pool.query('update projects set workspace_id = $2 where id = $1', [projectId, workspace.id]);
    expect((await call(owner, 'DELETE', `/workspace/${owner.id}`)).status).toBe(409);
    expect((await call(owner, 'DELETE', `/workspace/${workspace.id}`)).status).toBe(204);
    expect((await pool.query('select 1 from projects where id = $1', [projectId])).rowCount).toBe(0);
    expect((await pool.query('select 1 from workspace_members where workspace_id = $1', [workspace.id])).rowCount).toBe(0);
    expect((await call(member, 'GET', `/workspace/${workspace.id}`)).status).toBe(404);
    expect((await call(owner, 'GET', `/workspace/${owner.id}`)).json).toMatchObject({ personal: true, role: 'owner' });
  }, 60_000);

  it('keeps the workspace chosen last for a sign-in elsewhere; a workspace left or deleted gives way to the personal one', async () => {
    const { owner, member, workspace } = await team('last');
    const last = async (user: User) => ((await call(user, 'GET', '/workspaces/last')).json as { workspace_id: string }).workspace_id;
    // Nothing chosen yet: the personal workspace.
    expect(await last(member)).toBe(member.id);
    expect((await call(member, 'PUT', '/workspaces/last', { workspace_id: workspace.id })).status).toBe(204);
    expect(await last(member)).toBe(workspace.id);
    // Only the caller's: the owner's choice is their own, and a stranger cannot choose a workspace of others.
    expect(await last(owner)).toBe(owner.id);
    const stranger = await signUp(server.origin, 'last-stranger');
    const refused = await call(stranger, 'PUT', '/workspaces/last', { workspace_id: workspace.id });
    expect([refused.status, detailOf(refused)]).toEqual([404, WORKSPACE_TEXTS.notFound]);
    expect(await last(stranger)).toBe(stranger.id);
    expect((await call(member, 'PUT', '/workspaces/last', { workspace_id: 'not-a-uuid' })).status).toBe(400);
    // Back to personal, then to the team again; leaving it forgets it.
    expect((await call(member, 'PUT', '/workspaces/last', { workspace_id: member.id })).status).toBe(204);
    expect(await last(member)).toBe(member.id);
    expect((await call(member, 'PUT', '/workspaces/last', { workspace_id: workspace.id })).status).toBe(204);
    expect((await call(member, 'POST', `/workspace/${workspace.id}/leave`)).status).toBe(204);
    expect(await last(member)).toBe(member.id);
    // A deleted workspace is forgotten by its owner's choice too.
    expect((await call(owner, 'PUT', '/workspaces/last', { workspace_id: workspace.id })).status).toBe(204);
    expect((await call(owner, 'DELETE', `/workspace/${workspace.id}`)).status).toBe(204);
    expect(await last(owner)).toBe(owner.id);
  }, 60_000);

  it('withdraws an invitation whose mail could not be sent, and logs its id only', async () => {
    const owner = await signUp(server.origin, 'mailfail-owner');
    await subscribe(owner, 'pro');
    const workspace = await createWorkspace(owner, 'Mail failure');
    const email = `mailfail-${Date.now()}@example.com`;
    smtp.state.rejecting = true;
    let failed: RawAnswer;
    try {
      failed = await call(owner, 'POST', `/workspace/${workspace.id}/invitations`, { email });
    } finally {
      smtp.state.rejecting = false;
    }
    expect(failed.status).toBe(502);
    expect((await call(owner, 'GET', `/workspace/${workspace.id}/invitations`)).json).toEqual([]);
    const id = (await pool.query<{ id: string }>('select id from workspace_invitations where workspace_id = $1', [workspace.id])).rows[0]!.id;
    const logged = logLines.join('');
    expect(logged).toContain(id);
    expect(logged).not.toContain(email);
    // The address can be invited again at once.
    await invite(owner, workspace.id, email);
    expect(logLines.join('')).not.toContain(email);
  }, 60_000);

  it(`sends at most ${INVITATIONS_PER_HOUR} invitations an hour from one workspace`, async () => {
    const owner = await signUp(server.origin, 'flood-owner');
    await subscribe(owner, 'enterprise');
    const workspace = await createWorkspace(owner, 'Flood');
    for (let i = 0; i < INVITATIONS_PER_HOUR; i++) {
      const sent = await call(owner, 'POST', `/workspace/${workspace.id}/invitations`, { email: `flood-${i}-${Date.now()}@example.com` });
      expect(sent.status, sent.text).toBe(201);
    }
    const refused = await call(owner, 'POST', `/workspace/${workspace.id}/invitations`, { email: 'flood-last@example.com' });
    expect([refused.status, detailOf(refused)]).toEqual([429, WORKSPACE_TEXTS.invitationsTooMany]);
  }, 60_000);
});

/** The X-Next-Cursor of a list. */
async function rawHeader(user: User, path: string): Promise<string> {
  const response = await fetch(`${server.origin}${path}`, { headers: { authorization: `Bearer ${user.token}` } });
  return response.headers.get('x-next-cursor') ?? '';
}

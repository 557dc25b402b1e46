import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTeamServer, createSettings, DEFAULT_SETTINGS, migrateSettings, settingsSchema, teamServerCheckMessage, teamServerOrigin, type FetchLike } from './settings';

describe('migrateSettings', () => {
  it.each([undefined, null, 'garbage', 42, [], {}])('gives the defaults for %j', (stored) => {
    expect(migrateSettings(stored)).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps valid fields, resets invalid ones independently and drops unknown keys', () => {
    const stored = {
      windowBounds: { x: 10, y: 20, width: 800, height: 600 },
      server: { mode: 'team', url: 'https://team.example.com' },
      desktopNotifications: 'yes',
      keychainNoticeShown: true,
      stray: 'dropped',
    };
    expect(migrateSettings(stored)).toEqual({
      server: { mode: 'team', url: 'https://team.example.com' },
      desktopNotifications: true,
      keychainNoticeShown: true,
    });
  });

  it.each([
    { mode: 'team', url: 'javascript:alert(1)' },
    { mode: 'team', url: 'https://user:pw@team.example.com' },
    { mode: 'team', url: 'https://team.example.com/under/a/path' },
    { mode: 'cloud' },
  ])('resets a bad server choice %j to embedded', (server) => {
    expect(migrateSettings({ server }).server).toEqual({ mode: 'embedded' });
  });

  it('gives the origin to use at start: the team server, or null for the embedded one', () => {
    expect(teamServerOrigin(migrateSettings({ server: { mode: 'team', url: 'https://team.example.com/' } }))).toBe('https://team.example.com');
    expect(teamServerOrigin(DEFAULT_SETTINGS)).toBeNull();
  });
});

const HEALTHY = { status: 'ok', version: '1.2.3', database: { kind: 'postgres', state: 'up' } };

describe('team server check', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      // As @fastify/cors does: the allow-origin header only for an origin in VIBEEVAL_CORS_ORIGINS.
      const cors: Record<string, string> = req.headers.origin === 'app://vibeeval' ? { 'access-control-allow-origin': 'app://vibeeval' } : {};
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json', ...cors }).end(JSON.stringify(body));
      const host = req.headers.host ?? '';
      if (req.url !== '/health') res.writeHead(404).end();
      else if (host.startsWith('localhost')) res.writeHead(302, { location: `http://127.0.0.1:${host.split(':')[1]}/health` }).end();
      else json(200, HEALTHY);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("accepts a server whose /health answers as vibeeval with its database up, to the app's origin", async () => {
    expect(await checkTeamServer(origin)).toEqual({ ok: true });
  });

  it('refuses redirects, unreachable hosts and bad URLs, each with its reason', async () => {
    expect(await checkTeamServer(origin.replace('127.0.0.1', 'localhost'))).toEqual({ ok: false, reason: 'unreachable' });
    expect(await checkTeamServer('http://127.0.0.1:1')).toEqual({ ok: false, reason: 'unreachable' });
    expect(await checkTeamServer('file:///etc/passwd')).toEqual({ ok: false, reason: 'invalid-url' });
    expect(await checkTeamServer(`${origin}/team`)).toEqual({ ok: false, reason: 'invalid-url' });
  });

  it('tells a server that is not vibeeval, one whose database is down, and one that takes too long', async () => {
    const answering =
      (status: number, body: unknown, allow: string | null = 'app://vibeeval'): FetchLike =>
      async () => ({
        ok: status < 300,
        status,
        headers: { get: (name: string) => (name === 'access-control-allow-origin' ? allow : null) },
        json: async () => body,
      });
    expect(await checkTeamServer('https://team.example.com', answering(200, HEALTHY, null))).toEqual({ ok: false, reason: 'origin-refused' });
    expect(await checkTeamServer('https://team.example.com', answering(200, HEALTHY, 'https://other.example'))).toEqual({
      ok: false,
      reason: 'origin-refused',
    });
    expect(await checkTeamServer('https://team.example.com', answering(200, '<html>'))).toEqual({ ok: false, reason: 'not-vibeeval' });
    expect(await checkTeamServer('https://team.example.com', answering(200, { status: 'ok' }))).toEqual({ ok: false, reason: 'not-vibeeval' });
    const degraded = { ...HEALTHY, status: 'degraded', database: { kind: 'postgres', state: 'down' }, detail: 'x' };
    expect(await checkTeamServer('https://team.example.com', answering(503, degraded))).toEqual({ ok: false, reason: 'database-down' });
    const hanging: FetchLike = (_url, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
    expect(await checkTeamServer('https://team.example.com', hanging, 20)).toEqual({ ok: false, reason: 'timeout' });
  });

  it('has a message for every refusal and none for success', () => {
    for (const reason of ['invalid-url', 'unreachable', 'timeout', 'not-vibeeval', 'database-down', 'origin-refused'] as const) {
      expect(teamServerCheckMessage({ ok: false, reason })).toMatch(/\w+/);
    }
    expect(teamServerCheckMessage({ ok: true })).toBeNull();
    expect(teamServerCheckMessage({ ok: false, reason: 'not-vibeeval' })).toBe('That address answers, but not as a vibeeval server.');
  });

  it('saves a team server (as its origin) only after the check passes', async () => {
    const backend = { store: {} as Record<string, unknown> };
    const settings = createSettings(backend);
    expect(await settings.setServer({ mode: 'team', url: 'http://127.0.0.1:1' })).toEqual({
      ok: false,
      message: 'The team server could not be reached. Check the address and your network.',
    });
    expect(settings.get().server).toEqual({ mode: 'embedded' });
    expect(await settings.setServer({ mode: 'team', url: `${origin}/` })).toEqual({ ok: true, restartRequired: true });
    expect(backend.store.server).toEqual({ mode: 'team', url: origin });
    expect(await settings.setServer({ mode: 'cloud' })).toMatchObject({ ok: false });
    settings.setDesktopNotifications(false);
    settings.setKeychainNoticeShown();
    expect(settings.get()).toEqual({ server: { mode: 'team', url: origin }, desktopNotifications: false, keychainNoticeShown: true });
    expect(await settings.setServer({ mode: 'embedded' })).toEqual({ ok: true, restartRequired: true });
    expect(settings.get().server).toEqual({ mode: 'embedded' });
  });

  it("stores nothing but the schema's keys, whatever the file held before", () => {
    const backend = { store: { accessToken: 'secret', stray: 1, desktopNotifications: true } as Record<string, unknown> };
    createSettings(backend).setDesktopNotifications(false);
    expect(Object.keys(JSON.parse(JSON.stringify(backend.store)) as object).sort()).toEqual(Object.keys(settingsSchema.shape).sort());
    expect(JSON.stringify(backend.store)).not.toContain('secret');
  });
});

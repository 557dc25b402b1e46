import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTeamServer, createSettings, DEFAULT_SETTINGS, migrateSettings, restoreBounds } from './settings';

describe('migrateSettings', () => {
  it.each([undefined, null, 'garbage', 42, [], {}])('gives the defaults for %j', (stored) => {
    expect(migrateSettings(stored)).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps valid fields and resets invalid ones independently', () => {
    const stored = {
      windowBounds: { x: 10, y: 20, width: 'wide', height: 600 },
      server: { mode: 'team', url: 'https://team.example.com' },
      desktopNotifications: 'yes',
      stray: 'dropped',
    };
    expect(migrateSettings(stored)).toEqual({
      windowBounds: null,
      server: { mode: 'team', url: 'https://team.example.com' },
      desktopNotifications: true,
    });
  });

  it.each([
    { mode: 'team', url: 'javascript:alert(1)' },
    { mode: 'team', url: 'https://user:pw@team.example.com' },
    { mode: 'cloud' },
  ])('resets a bad server choice %j to embedded', (server) => {
    expect(migrateSettings({ server }).server).toEqual({ mode: 'embedded' });
  });
});

describe('restoreBounds', () => {
  const primary = { x: 0, y: 0, width: 1920, height: 1040 };
  const right = { x: 1920, y: 0, width: 1280, height: 1024 };

  it('keeps bounds that fit a display', () => {
    expect(restoreBounds({ x: 100, y: 100, width: 800, height: 600 }, [primary])).toEqual({ x: 100, y: 100, width: 800, height: 600 });
  });

  it('clamps into the display most overlapped', () => {
    expect(restoreBounds({ x: 2800, y: 900, width: 800, height: 600 }, [primary, right])).toEqual({
      x: 2400,
      y: 424,
      width: 800,
      height: 600,
    });
  });

  it('shrinks bounds larger than the display', () => {
    expect(restoreBounds({ x: -50, y: -50, width: 4000, height: 3000 }, [primary])).toEqual(primary);
  });

  it('gives null when the display is gone or nothing was saved', () => {
    expect(restoreBounds({ x: 2000, y: 100, width: 800, height: 600 }, [primary])).toBeNull();
    expect(restoreBounds(null, [primary])).toBeNull();
  });
});

describe('team server check', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/health' || req.url === '/team/health') res.writeHead(200).end('ok');
      else if (req.url === '/moved/health') res.writeHead(302, { location: '/health' }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('accepts a server whose /health answers 2xx, under a path too', async () => {
    expect(await checkTeamServer(origin)).toBe(true);
    expect(await checkTeamServer(`${origin}/team`)).toBe(true);
  });

  it('refuses 404, redirects, unreachable hosts and bad URLs', async () => {
    expect(await checkTeamServer(`${origin}/nothing`)).toBe(false);
    expect(await checkTeamServer(`${origin}/moved`)).toBe(false);
    expect(await checkTeamServer('http://127.0.0.1:1')).toBe(false);
    expect(await checkTeamServer('file:///etc/passwd')).toBe(false);
  });

  it('saves a team server only after the check passes', async () => {
    const backend = { store: {} as Record<string, unknown> };
    const settings = createSettings(backend);
    expect(await settings.setServer({ mode: 'team', url: `${origin}/nothing` })).toBe(false);
    expect(settings.get().server).toEqual({ mode: 'embedded' });
    expect(await settings.setServer({ mode: 'team', url: origin })).toBe(true);
    expect(backend.store.server).toEqual({ mode: 'team', url: origin });
    settings.setDesktopNotifications(false);
    settings.setWindowBounds({ x: 1, y: 2, width: 'bad' });
    expect(settings.get()).toEqual({ windowBounds: null, server: { mode: 'team', url: origin }, desktopNotifications: false });
  });
});

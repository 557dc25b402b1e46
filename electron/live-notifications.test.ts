import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer } from '../server/testing/test-server';
import { SESSION_KEY, watchSessionWrites } from './live-session';
import { startLiveNotifications, type LiveNotifications } from './live-notifications';
import type { Vault } from './vault';

// The subscriber against the real server (embedded PostgreSQL, real scans of a small local site), with a fake
// notification sink in place of Electron's Notification.

let server: Awaited<ReturnType<typeof startTestServer>>;
let site: http.Server;
let siteUrl: string;
const running: LiveNotifications[] = [];

beforeAll(async () => {
  // Slow pages, so a scan lasts long enough to cut its stream in the middle.
  site = http.createServer((req, res) => {
    setTimeout(() => {
      res.writeHead(req.url === '/' || req.url === '/about' ? 200 : 404, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Shop</title><a href="/about">About</a>');
    }, 150);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  server = await startTestServer({ VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0' });
});
afterAll(async () => {
  for (const notifications of running) notifications.stop();
  await server?.stop();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

function memoryVault(entries: Record<string, string> = {}): Vault & { entries: Map<string, string> } {
  const map = new Map(Object.entries(entries));
  return {
    entries: map,
    getItem: async (key) => map.get(key) ?? null,
    setItem: async (key, value) => void map.set(key, value),
    removeItem: async (key) => void map.delete(key),
  };
}

let counter = 0;
/** A new account's session JSON, as supabase-js stores it in the vault. */
async function signUp(): Promise<{ json: string; token: string }> {
  const account = JSON.stringify({ email: `live${Date.now()}${counter++}@example.com`, password: 'secret123' });
  const response = await fetch(`${server.origin}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: 'local' },
    body: account,
  });
  if (!response.ok) throw new Error(`sign-up answered ${response.status}`);
  // Sign-up answers without a session (it says nothing about whether the address had an account): sign in.
  const signIn = await fetch(`${server.origin}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: 'local' },
    body: account,
  });
  const session = (await signIn.json()) as { access_token: string };
  return { json: JSON.stringify(session), token: session.access_token };
}

/** An API call; the answer's body typed by the caller, who asserts what matters in it. */
async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function scanToEnd(token: string, projectId: string): Promise<string> {
  const started = await api<{ scan_id: string }>(token, 'PATCH', `/project_test/${projectId}`);
  expect(started.status).toBe(200);
  await waitFor(async () => {
    const { body } = await api<{ scan: { id: string; state: string } | null }>(token, 'GET', `/project/${projectId}/scan`);
    return body.scan?.id === started.body.scan_id && (body.scan.state === 'completed' || body.scan.state === 'failed') ? true : undefined;
  });
  return started.body.scan_id;
}

/**
 * fetch with a hand on the live stream: `cutOn(text)` breaks the stream right after a chunk containing `text`,
 * `cutNow()` breaks it at once, and `holdTickets()` keeps the next connections waiting until released.
 */
function streamControls() {
  let stream: TransformStreamDefaultController<Uint8Array> | null = null;
  let armedOn: string | null = null;
  let cuts = 0;
  let hold: { promise: Promise<void>; release: () => void } | null = null;
  const calls: string[] = [];
  /** Everything the streams carried. */
  const received: string[] = [];
  const controlledFetch: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : input.toString();
    calls.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
    if (url.includes('/live/ticket') && hold) await hold.promise;
    const response = await fetch(input, init);
    if (!new URL(url).pathname.endsWith('/live') || !response.body) return response;
    const decoder = new TextDecoder();
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        start(controller) {
          stream = controller;
        },
        transform(chunk, controller) {
          controller.enqueue(chunk);
          received.push(decoder.decode(chunk));
          if (armedOn && decoder.decode(chunk).includes(armedOn)) {
            armedOn = null;
            cuts++;
            controller.error(new Error('cut by the test'));
          }
        },
      }),
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch: controlledFetch,
    calls,
    received,
    /** Streams broken by `cutOn` so far. */
    get cuts() {
      return cuts;
    },
    cutOn(text: string) {
      armedOn = text;
    },
    cutNow() {
      stream?.error(new Error('cut by the test'));
    },
    holdTickets() {
      let release = () => {};
      const promise = new Promise<void>((resolve) => (release = resolve));
      hold = { promise, release };
      return () => {
        hold = null;
        release();
      };
    },
  };
}

function sink() {
  const shown: { title: string; body: string; click: () => void }[] = [];
  return { shown, show: (notice: { title: string; body: string }, click: () => void) => void shown.push({ ...notice, click }) };
}

function start(
  vault: Vault,
  fetchImpl: typeof fetch,
  show: ReturnType<typeof sink>['show'],
  extra: { hasWindow?: () => boolean; focusWindow?: () => void; openProject?: (id: string) => void } = {},
) {
  const notifications = startLiveNotifications({
    origin: server.origin,
    vault,
    hasWindow: extra.hasWindow ?? (() => true),
    notificationsEnabled: () => true,
    show,
    focusWindow: extra.focusWindow ?? (() => {}),
    openProject: extra.openProject ?? (() => {}),
    fetch: fetchImpl,
    delay: () => 30,
  });
  running.push(notifications);
  return notifications;
}

describe('live notifications against the real server', () => {
  it('gives one notice per finished scan across cut streams, none to another user, none once signed out', async () => {
    const owner = await signUp();
    const other = await signUp();
    const ownerVault = memoryVault({ [SESSION_KEY]: owner.json });
    const controls = streamControls();
    const ownerSink = sink();
    const focusWindow = vi.fn();
    const openProject = vi.fn();
    let notifications: LiveNotifications | null = null;
    // The renderer's writes go through the watched vault, as in main.ts.
    const rendererVault = watchSessionWrites(ownerVault, { changed: () => notifications?.sessionChanged(), beforeRead: () => notifications?.settled() });
    notifications = start(ownerVault, controls.fetch, ownerSink.show, { focusWindow, openProject });
    const otherSink = sink();
    const otherControls = streamControls();
    const otherNotifications = start(memoryVault({ [SESSION_KEY]: other.json }), otherControls.fetch, otherSink.show);
    await waitFor(() => notifications.subscriber.status === 'open' && otherNotifications.subscriber.status === 'open');

    const { body: project } = await api<{ id: string }>(owner.token, 'POST', '/project', { url: siteUrl, instruction_text: 'Shop', num_pages: 2 });
    const site = new URL(siteUrl).host;

    // 1. The stream breaks during the scan and comes back at once: the finish arrives live.
    controls.cutOn('event: scan.state');
    await scanToEnd(owner.token, project.id);
    await waitFor(() => ownerSink.shown.length === 1);
    expect(controls.cuts).toBe(1);
    expect(controls.calls.filter((call) => call === 'GET /live')).toHaveLength(2);
    expect(ownerSink.shown[0]).toMatchObject({ title: `Scan finished: ${site}` });
    expect(ownerSink.shown[0]?.body).toMatch(/^(Grade [A-F][+-]?\. )?\d+ critical issues?, \d+ high issues?\.$/);
    // Each reconnection asks what finished meanwhile: the finish was seen live, and the catch-up drops it.
    const catchUps = () => controls.calls.filter((call) => call === 'GET /projects').length;
    expect(catchUps()).toBe(1);
    // Broken right after the finish: the catch-up finds the same scan again, and the dedupe drops it.
    controls.cutNow();
    await waitFor(() => catchUps() === 2 && notifications.subscriber.status === 'open');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ownerSink.shown).toHaveLength(1);

    // 2. The stream breaks during the next scan and stays down until it has finished: the catch-up announces it.
    controls.cutOn('event: scan.state');
    const release = controls.holdTickets();
    await scanToEnd(owner.token, project.id);
    release();
    await waitFor(() => ownerSink.shown.length === 2);
    expect(controls.cuts).toBe(2);
    expect(catchUps()).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 500)); // room for a duplicate to show up, were there one
    expect(ownerSink.shown.map((notice) => notice.title)).toEqual([`Scan finished: ${site}`, `Scan finished: ${site}`]);
    expect(otherSink.shown).toEqual([]);
    // The other user's stream never carried a word about the owner's project.
    expect(otherControls.received.join('')).not.toContain(project.id);
    expect(controls.received.join('')).toContain(project.id);

    ownerSink.shown[1]?.click();
    expect(focusWindow).toHaveBeenCalledTimes(1);
    expect(openProject).toHaveBeenCalledWith(project.id);

    // 3. Signed out in the renderer: the stream stops, and a later scan gives nothing.
    await rendererVault.removeItem(SESSION_KEY);
    await waitFor(() => notifications.subscriber.status === 'signed-out');
    await scanToEnd(owner.token, project.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ownerSink.shown).toHaveLength(2);
    expect(otherSink.shown).toEqual([]);
  });

  it('opens no stream while signed out', async () => {
    const controls = streamControls();
    const quiet = sink();
    const notifications = start(memoryVault({ [SESSION_KEY]: '{"not":"a session"}' }), controls.fetch, quiet.show);
    await waitFor(() => notifications.subscriber.status === 'signed-out');
    expect(controls.calls).toEqual([]);
  });

  it('follows a sign-in written to the vault', async () => {
    const vault = memoryVault();
    const controls = streamControls();
    const shown = sink();
    let notifications: LiveNotifications | null = null;
    const rendererVault = watchSessionWrites(vault, { changed: () => notifications?.sessionChanged(), beforeRead: () => notifications?.settled() });
    notifications = start(vault, controls.fetch, shown.show);
    await waitFor(() => notifications.subscriber.status === 'signed-out');
    const user = await signUp();
    await rendererVault.setItem(SESSION_KEY, user.json);
    await waitFor(() => notifications.subscriber.status === 'open');
    expect(controls.calls).toEqual(['POST /live/ticket', 'GET /live']);
  });
});

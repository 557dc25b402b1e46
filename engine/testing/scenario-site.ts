// A small web app with a login, for browser scenario tests and the scenarios benchmark, served on 127.0.0.1.
// Written by hand for these tests: a marketing home page with a main navigation, a pricing page, a contact form that
// shows its validation message on empty submit, a sign-in form (email + password, form POST, session cookie), a
// dashboard that loads its data with fetch, and a page that logs a console error and fails one request.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The only account of the site; the password is long and unusual so tests can grep traces and logs for it. */
export const SCENARIO_SITE_USER = { username: 'tester@example.com', password: 'Horse-Battery-Staple-7713' } as const;

export interface ScenarioSite {
  url: string;
  origin: string;
  /** Paths requested, in order (`GET /login`). */
  requests: string[];
  /** 'changed': the sign-in button is renamed, as when the app is redeployed with new copy. */
  setVariant(variant: 'original' | 'changed'): void;
  close(): Promise<void>;
}

const page = (title: string, body: string, script = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"></head><body>
<header><nav aria-label="Main"><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/contact">Contact</a> <a href="/login">Sign in</a></nav></header>
<main>${body}</main>${script ? `<script>${script}</script>` : ''}</body></html>`;

const HOME = page('Acme Notes', '<h1>Notes for busy teams</h1><p>Write, share and find your notes.</p><a href="/broken">Status</a>');
const PRICING = page('Pricing - Acme Notes', '<h1>Pricing</h1><p>Free for teams of three. Pro: 8 euros per seat.</p>');
const CONTACT = page(
  'Contact - Acme Notes',
  `<h1>Contact us</h1><form id="contact" novalidate><label for="cemail">Your email</label> <input id="cemail" name="email" type="email">
<label for="cmsg">Message</label> <textarea id="cmsg" name="message"></textarea><button type="submit">Send message</button>
<p id="contact-error" role="alert"></p></form>`,
  `document.getElementById('contact').addEventListener('submit', (e) => { e.preventDefault();
  const email = document.getElementById('cemail').value.trim();
  document.getElementById('contact-error').textContent = email ? '' : 'Please enter your email address.';
  if (email) document.getElementById('contact').outerHTML = '<p>Thanks, we will answer soon.</p>'; });`,
);
const BROKEN = page(
  'Status - Acme Notes',
  '<h1>Service status</h1><p id="status">Loading...</p>',
  `console.error('Status widget failed to load'); fetch('/api/status').then((r) => { document.getElementById('status').textContent = 'Status: ' + r.status; });`,
);
const login = (button: string, error = '') =>
  page(
    'Sign in - Acme Notes',
    `<h1>Sign in</h1><form method="post" action="/login"><label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username">
<label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password">
<button type="submit">${button}</button></form>${error ? `<p role="alert">${error}</p>` : ''}`,
  );
const DASHBOARD = page(
  'Dashboard - Acme Notes',
  '<h1>Dashboard</h1><p>Signed in as <span data-testid="account">tester@example.com</span></p><ul id="notes"></ul><form method="post" action="/logout"><button>Sign out</button></form>',
  `fetch('/api/notes').then((r) => r.json()).then((notes) => { for (const n of notes) { const li = document.createElement('li'); li.textContent = n; document.getElementById('notes').append(li); } });`,
);

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk.slice(0, 10_000)));
    req.on('end', () => resolve(body));
  });
}

/** Starts the app on 127.0.0.1 at a free port. */
export async function startScenarioSite(): Promise<ScenarioSite> {
  const requests: string[] = [];
  const sessions = new Set<string>();
  let variant: 'original' | 'changed' = 'original';
  const html = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(body);
  const signedIn = (req: http.IncomingMessage) => {
    const token = /(?:^|;\s*)session=([a-f0-9]+)/.exec(req.headers.cookie ?? '')?.[1];
    return token !== undefined && sessions.has(token);
  };
  const button = () => (variant === 'original' ? 'Sign in' : 'Log in now');

  const server = http.createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      requests.push(`${req.method} ${path}`);
      if (req.method === 'POST' && path === '/login') {
        const form = new URLSearchParams(await readBody(req));
        if (form.get('email') === SCENARIO_SITE_USER.username && form.get('password') === SCENARIO_SITE_USER.password) {
          const token = randomBytes(16).toString('hex');
          sessions.add(token);
          return res.writeHead(303, { location: '/dashboard', 'set-cookie': `session=${token}; Path=/; HttpOnly; SameSite=Lax` }).end();
        }
        return html(res, 401, login(button(), 'Invalid email or password.'));
      }
      if (req.method === 'POST' && path === '/logout') return res.writeHead(303, { location: '/', 'set-cookie': 'session=; Path=/; Max-Age=0' }).end();
      if (path === '/') return html(res, 200, HOME);
      if (path === '/pricing') return html(res, 200, PRICING);
      if (path === '/contact') return html(res, 200, CONTACT);
      if (path === '/broken') return html(res, 200, BROKEN);
      if (path === '/login') return html(res, 200, login(button()));
      if (path === '/dashboard') return signedIn(req) ? html(res, 200, DASHBOARD) : res.writeHead(303, { location: '/login' }).end();
      if (path === '/api/notes') {
        if (!signedIn(req)) return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"sign in"}');
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(['Weekly plan', 'Release checklist']));
      }
      if (path === '/api/status') return res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"down"}');
      return html(res, 404, '<!doctype html><title>Not found</title><h1>Not found</h1>');
    })();
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/`,
    origin,
    requests,
    setVariant: (next) => {
      variant = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

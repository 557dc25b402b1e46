// Signed-in scans of apps that do not sign in with Supabase: Firebase Auth apps (Bolt and v0 generate them with the
// modular SDK: signInWithEmailAndPassword, then ref(db, "users/" + uid) or doc(db, "orders", id)) whose rules say
// `auth != null`, so any signed-in user reads every user's records. Each is scanned as two test accounts (alice and
// bob, users of the Firebase stand-in); each has a clean twin whose rules say `auth.uid == $uid`, which must give
// nothing. API keys are assembled at run time (engine/testing/fake-keys.ts), so nothing key-shaped is committed.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ScanAccount } from '../../../../common/scan-accounts';
import { fakeToken, HEX } from '../../fake-keys';
import type { FirebaseRules, FirebaseStandInOptions, FirebaseUser } from '../../firebase-stand-in';
import { viteIndex, VITE_CSS } from '../shapes';
import type { CorpusApp, CorpusHandler, CorpusResponse } from '../types';

/** Firebase uids: 28 characters, letters and digits. */
const ALICE: FirebaseUser = { uid: 'k3VnQx7TfZbM2pLw9sRj4HdYc8A1', email: 'alice@example.test', password: 'Alice-Firebase-Pass-1' };
const BOB: FirebaseUser = { uid: 'P8mWq2ZrT5xNc7LbK1vJd4GsH9F3', email: 'bob@example.test', password: 'Bob-Firebase-Pass-2' };
/** A third user, not a test account. */
const CAROL_UID = 'Zt6Rb1YwM4qLx8NcV2kP7fJh3Ds5';
export const FIREBASE_ACCOUNTS: ScanAccount[] = [ALICE, BOB].map((u) => ({ login: u.email, password: u.password }));

const apiKeyOf = (seed: number): string => 'AIza' + fakeToken(35, undefined, 900 + seed);

/** The web config the Firebase console hands out, as a bundler leaves it. */
function webConfig(projectId: string, seed: number, databaseURL?: string): string {
  const sender = String(500_000_000_000 + seed * 6_113_417);
  return (
    `{apiKey:"${apiKeyOf(seed)}",authDomain:"${projectId}.firebaseapp.com",` +
    (databaseURL ? `databaseURL:"${databaseURL}",` : '') +
    `projectId:"${projectId}",storageBucket:"${projectId}.firebasestorage.app",messagingSenderId:"${sender}",appId:"1:${sender}:web:${fakeToken(22, HEX, 950 + seed)}"}`
  );
}

/** The vendor chunk of a Vite + React + Firebase app: opaque SDK stubs. */
const VENDOR: CorpusResponse = {
  body: 'function Zt(e){return{options:e}}function Au(e){return{app:e}}function Si(e,t,n){return Promise.resolve({user:{uid:t}})}function Yt(e){return{app:e}}function Xt(e,t){return{db:e,path:t}}function Gt(e){return{app:e}}function Dc(e,t,n){return{db:e,path:[t,n]}}const c={useState:e=>[e,()=>{}],useEffect:()=>{}},s={jsx:(e,t)=>({e,t})};export{c as r,s as j,Zt as i,Au as a,Si as w,Yt as g,Xt as f,Gt as h,Dc as d};',
};

function viteFirebaseApp(title: string, config: string, body: string): Record<string, CorpusResponse> {
  return {
    '/': viteIndex(title, '/assets/index-Fh2kLq9W.js'),
    '/assets/index-Fh2kLq9W.js': {
      body: `import{r as c,j as s,i as Zt,a as Au,w as Si,g as Yt,f as Xt,h as Gt,d as Dc}from"./vendor-Qm4xT7pB.js";const Ke=${config},Fe=Zt(Ke),Ae=Au(Fe);${body}`,
    },
    '/assets/vendor-Qm4xT7pB.js': VENDOR,
    '/assets/index-C9wRt2Lm.css': VITE_CSS,
  };
}

const SIGN_IN_FORM = 'async function signIn(e,t){const{user:n}=await Si(Ae,e,t);return n}';

/** A habit tracker on the Realtime Database: each user's profile and streak under users/<uid>. */
const HABITS_PROJECT = 'habitloop-7d2c1';
const HABITS_DB = `https://${HABITS_PROJECT}-default-rtdb.firebaseio.com`;
const habits = (rules: FirebaseRules): FirebaseStandInOptions => ({
  projectId: HABITS_PROJECT,
  auth: { apiKey: apiKeyOf(1), users: [ALICE, BOB] },
  rules: { database: rules },
  database: {
    users: {
      [ALICE.uid]: { email: ALICE.email, displayName: 'Alice Martin', phone: '+33 6 12 34 56 78', streak: 12 },
      [BOB.uid]: { email: BOB.email, displayName: 'Bob Chen', phone: '+1 415 555 0199', streak: 3 },
      [CAROL_UID]: { email: 'carol.diaz@mail.example', displayName: 'Carol Diaz', phone: '+34 612 345 678', streak: 40 },
    },
  },
});
const habitsRoutes = () =>
  viteFirebaseApp(
    'Habitloop',
    webConfig(HABITS_PROJECT, 1, HABITS_DB),
    `const Db=Yt(Fe);${SIGN_IN_FORM}function Profile({user:e}){return c.useEffect(()=>{Xt(Db,"users/"+e.uid)},[e]),s.jsx("main",{})}`,
  );

/** A freelance invoicing app on Firestore: invoices with the client's address, keyed by document id, owned by userId. */
const INVOICES_PROJECT = 'quickbill-3a9f0';
const invoices = (rules: FirebaseRules): FirebaseStandInOptions => ({
  projectId: INVOICES_PROJECT,
  auth: { apiKey: apiKeyOf(2), users: [ALICE, BOB] },
  rules: { firestore: rules },
  firestore: {
    invoices: {
      inv_8Kq2: { userId: BOB.uid, client: 'Northwind Ltd', clientEmail: 'ap@northwind.example', amount: 2400, iban: 'DE89370400440532013000' },
      inv_3Lm9: { userId: ALICE.uid, client: 'Acme GmbH', clientEmail: 'billing@acme.example', amount: 900, iban: 'FR7630006000011234567890189' },
      inv_7Zx1: { userId: CAROL_UID, client: 'Globex', clientEmail: 'pay@globex.example', amount: 5100, iban: 'ES9121000418450200051332' },
    },
  },
});
const invoicesRoutes = () =>
  viteFirebaseApp(
    'Quickbill',
    webConfig(INVOICES_PROJECT, 2),
    `const Db=Gt(Fe);${SIGN_IN_FORM}function Invoices({user:e}){return c.useEffect(()=>{Dc(Db,"invoices",e.uid)},[e]),s.jsx("main",{})}const q=(0,Db.collection)(Db,"invoices");`,
  );

export const APPS: CorpusApp[] = [
  {
    id: 'vite-firebase-signed-in-rtdb-any-user',
    shape: 'vite-firebase',
    title: 'Bolt-style habit tracker whose Realtime Database rules say ".read": "auth != null": any signed-in user reads every user\'s email and phone',
    accounts: FIREBASE_ACCOUNTS,
    firebase: habits('signed-in'),
    expect: [{ checkId: 'firebase-cross-user-read', path: '/users', minSeverity: 'medium' }],
    routes: habitsRoutes,
  },
  {
    id: 'vite-firebase-clean-signed-in-rtdb-owner',
    shape: 'vite-firebase',
    title: 'clean control: the same habit tracker with "users": { "$uid": { ".read": "auth.uid === $uid" } }',
    control: true,
    accounts: FIREBASE_ACCOUNTS,
    firebase: habits('owner'),
    expect: [],
    routes: habitsRoutes,
  },
  {
    id: 'vite-firebase-signed-in-firestore-any-user',
    shape: 'vite-firebase',
    title: "v0-style invoicing app whose Firestore rules say `allow read: if request.auth != null`: any signed-in user reads every user's invoices and IBANs",
    accounts: FIREBASE_ACCOUNTS,
    firebase: invoices('signed-in'),
    expect: [{ checkId: 'firebase-cross-user-read', path: '/documents/invoices', minSeverity: 'medium' }],
    routes: invoicesRoutes,
  },
  {
    id: 'vite-firebase-clean-signed-in-firestore-owner',
    shape: 'vite-firebase',
    title: 'clean control: the same invoicing app with `allow read: if request.auth.uid == resource.data.userId`',
    control: true,
    accounts: FIREBASE_ACCOUNTS,
    firebase: invoices('owner'),
    expect: [],
    routes: invoicesRoutes,
  },
];

// Apps with their own sign-in: a server-rendered invoicing app (Express + EJS, as Replit and Bolt scaffold it) with a
// login form and a session cookie, and a Vite SPA whose bundle posts to its own JSON login API and sends the token it
// gets back as the bearer. Their weakness: a record route that checks the session, not the owner, so any signed-in
// user opens any user's invoice by its id. The ids are those each account's own list links to. Twins check the owner.

interface AppUser {
  email: string;
  password: string;
  name: string;
}
const APP_USERS: AppUser[] = [
  { email: 'alice@example.test', password: 'Alice-Form-Pass-1', name: 'Alice Martin' },
  { email: 'bob@example.test', password: 'Bob-Form-Pass-2', name: 'Bob Chen' },
];
export const APP_ACCOUNTS: ScanAccount[] = APP_USERS.map((u) => ({ login: u.email, password: u.password }));
const INVOICES = [
  { id: 1042, owner: 'alice@example.test', client: 'Acme GmbH', amount: 900, iban: 'FR7630006000011234567890189' },
  { id: 1043, owner: 'bob@example.test', client: 'Northwind Ltd', amount: 2400, iban: 'DE89370400440532013000' },
  { id: 1044, owner: 'carol.diaz@mail.example', client: 'Globex', amount: 5100, iban: 'ES9121000418450200051332' },
];

/** Sessions of a stand-in app: an opaque id per sign-in, as express-session keeps them. */
function sessionTable(): { open: (email: string) => string; who: (req: IncomingMessage) => string | undefined } {
  const sessions = new Map<string, string>();
  let next = 0;
  return {
    open: (email) => {
      const id = `s${++next}.${randomBytes(16).toString('base64url')}`;
      sessions.set(id, email);
      return id;
    },
    who: (req) => {
      const cookie = /(?:^|;\s*)connect\.sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      return sessions.get(cookie ?? bearer ?? '');
    },
  };
}

function readBody(req: IncomingMessage, then: (body: string) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => then(Buffer.concat(chunks).toString('utf8')));
}

function reply(res: ServerResponse, status: number, body: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { 'Content-Type': body.startsWith('<') ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8', ...headers });
  res.end(body);
}

const page = (title: string, who: string | undefined, main: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title} · Ledgerly</title></head><body><header><a href="/">Ledgerly</a> ${who ? `<span>Signed in as ${who}</span>` : '<a href="/login">Sign in</a>'}</header><main>${main}</main></body></html>`;

const LOGIN_FORM = (error = '') =>
  `<h1>Sign in</h1>${error ? `<p class="error" role="alert">${error}</p>` : ''}<form method="post" action="/login"><input type="hidden" name="_csrf" value="kq7Vx2Lm"><label>Email <input type="email" name="email"></label><label>Password <input type="password" name="password"></label><button type="submit">Sign in</button></form>`;

const invoicePage = (invoice: (typeof INVOICES)[number], who: string) =>
  page(`Invoice ${invoice.id}`, who, `<h1>Invoice #${invoice.id}</h1><p>Billed by ${invoice.owner} to ${invoice.client}</p><p>Amount: €${invoice.amount}</p><p>Pay to IBAN ${invoice.iban}</p>`);

/** The server-rendered app: /login (form, session cookie), /invoices (the user's own list), /invoices/:id. */
function formAppRoutes(ownerChecked: boolean): Record<string, CorpusResponse | CorpusHandler> {
  const sessions = sessionTable();
  const toLogin = (res: ServerResponse, path: string) => reply(res, 302, '', { Location: `/login?next=${encodeURIComponent(path)}` });
  return {
    '/': { body: page('Home', undefined, '<h1>Ledgerly</h1><p>Invoices for freelancers.</p><a href="/invoices">Your invoices</a>') },
    '/login': (req, res) => {
      if (req.method !== 'POST') return reply(res, 200, page('Sign in', undefined, LOGIN_FORM()));
      readBody(req, (body) => {
        const form = new URLSearchParams(body);
        const user = APP_USERS.find((u) => u.email === form.get('email') && u.password === form.get('password'));
        if (!user || form.get('_csrf') !== 'kq7Vx2Lm') return reply(res, 200, page('Sign in', undefined, LOGIN_FORM('Invalid email or password.')));
        reply(res, 302, '', { Location: '/invoices', 'Set-Cookie': `connect.sid=${sessions.open(user.email)}; Path=/; HttpOnly; SameSite=Lax` });
      });
    },
    '/invoices': (req, res) => {
      const who = sessions.who(req);
      if (!who) return toLogin(res, '/invoices');
      const mine = INVOICES.filter((i) => i.owner === who);
      reply(res, 200, page('Invoices', who, `<h1>Your invoices</h1><ul>${mine.map((i) => `<li><a href="/invoices/${i.id}">#${i.id} ${i.client}</a></li>`).join('')}</ul>`));
    },
    '*': (req, res) => {
      const path = (req.url ?? '/').split('?', 1)[0]!;
      const id = /^\/invoices\/(\d+)$/.exec(path)?.[1];
      if (!id) return reply(res, 404, page('Not found', undefined, '<h1>Not found</h1>'));
      const who = sessions.who(req);
      if (!who) return toLogin(res, path);
      const invoice = INVOICES.find((i) => String(i.id) === id && (!ownerChecked || i.owner === who));
      if (!invoice) return reply(res, 404, page('Not found', who, '<h1>Invoice not found</h1>'));
      reply(res, 200, invoicePage(invoice, who));
    },
  };
}

/** The SPA: its bundle posts to /api/auth/login and reads /api/invoices and /api/invoices/:id with the bearer. */
function apiAppRoutes(ownerChecked: boolean): Record<string, CorpusResponse | CorpusHandler> {
  const sessions = sessionTable();
  const bundle =
    'const API="/api";async function login(e,t){const n=await fetch("/api/auth/login",{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify({email:e,password:t})});if(!n.ok)throw new Error("Invalid credentials");const{token:r,user:o}=await n.json();return localStorage.setItem("token",r),o}' +
    'const auth=()=>({Authorization:`Bearer ${localStorage.getItem("token")}`});async function invoices(){return(await fetch("/api/invoices",{headers:auth()})).json()}async function invoice(e){return(await fetch(`/api/invoices/${e}`,{headers:auth()})).json()}';
  return {
    ...viteAppShell('Ledgerly', bundle),
    '/api/auth/login': (req, res) => {
      if (req.method !== 'POST') return reply(res, 405, JSON.stringify({ error: 'Method not allowed' }));
      readBody(req, (body) => {
        let given: { email?: string; password?: string } = {};
        try {
          given = JSON.parse(body) as typeof given;
        } catch {
          // an unreadable body is a failed sign-in
        }
        const user = APP_USERS.find((u) => u.email === given.email && u.password === given.password);
        if (!user) return reply(res, 401, JSON.stringify({ error: 'Invalid email or password' }));
        reply(res, 200, JSON.stringify({ token: sessions.open(user.email), user: { email: user.email, name: user.name } }));
      });
    },
    '/api/invoices': (req, res) => {
      const who = sessions.who(req);
      if (!who) return reply(res, 401, JSON.stringify({ error: 'Unauthorized' }));
      reply(res, 200, JSON.stringify({ invoices: INVOICES.filter((i) => i.owner === who).map(({ id, client, amount }) => ({ id, client, amount })) }));
    },
    '*': (req, res) => {
      const path = (req.url ?? '/').split('?', 1)[0]!;
      const id = /^\/api\/invoices\/(\d+)$/.exec(path)?.[1];
      if (!id) return reply(res, 200, viteIndex('Ledgerly', '/assets/index-Lg7pQ2xW.js').body);
      const who = sessions.who(req);
      if (!who) return reply(res, 401, JSON.stringify({ error: 'Unauthorized' }));
      const invoice = INVOICES.find((i) => String(i.id) === id && (!ownerChecked || i.owner === who));
      if (!invoice) return reply(res, 404, JSON.stringify({ error: 'Invoice not found' }));
      reply(res, 200, JSON.stringify(invoice));
    },
  };
}

function viteAppShell(title: string, entry: string): Record<string, CorpusResponse> {
  return { '/assets/index-Lg7pQ2xW.js': { body: entry }, '/assets/index-C9wRt2Lm.css': VITE_CSS, '/index.html': viteIndex(title, '/assets/index-Lg7pQ2xW.js') };
}

APPS.push(
  {
    id: 'express-signed-in-form-invoice-any-user',
    shape: 'express-api',
    title: 'Server-rendered invoicing app (login form, session cookie) whose /invoices/:id checks the session, not the owner: any user opens any invoice and its IBAN',
    accounts: APP_ACCOUNTS,
    render: true,
    expect: [{ checkId: 'signed-in-cross-user-page', path: '/invoices/', minSeverity: 'medium' }],
    routes: () => formAppRoutes(false),
  },
  {
    id: 'express-clean-signed-in-form-invoice-owner',
    shape: 'express-api',
    title: 'clean control: the same app, /invoices/:id answers 404 for an invoice that is not the user\'s',
    control: true,
    accounts: APP_ACCOUNTS,
    render: true,
    expect: [],
    routes: () => formAppRoutes(true),
  },
  {
    id: 'vite-api-signed-in-json-login-invoice-any-user',
    shape: 'express-api',
    title: 'SPA with its own JSON login API (POST /api/auth/login → token) whose GET /api/invoices/:id checks the token, not the owner',
    accounts: APP_ACCOUNTS,
    expect: [{ checkId: 'api-cross-user-read', path: '/api/invoices/', minSeverity: 'medium' }],
    routes: () => apiAppRoutes(false),
  },
  {
    id: 'vite-api-clean-signed-in-json-login-invoice-owner',
    shape: 'express-api',
    title: 'clean control: the same SPA, GET /api/invoices/:id answers 404 for an invoice that is not the user\'s',
    control: true,
    accounts: APP_ACCOUNTS,
    expect: [],
    routes: () => apiAppRoutes(true),
  },
);

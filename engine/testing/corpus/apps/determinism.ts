// Apps whose backend shows only at run time, late: the Supabase settings are assembled by a lazy chunk (no pattern
// over the bundle finds them) and the first query fires after a timer, an idle callback, a router redirect or a
// session lookup. Only a rendering that waits for what the page is doing sees the query, every time; the determinism
// test (engine/scan-determinism.test.ts) scans the first one ten times.
import { anonKey, VENDOR_CHUNK, VITE_CSS, viteIndex } from '../shapes';
import type { CorpusApp, CorpusContext, CorpusResponse } from '../types';

const BOOKINGS = [
  { id: 1, full_name: 'Maria Santos', phone: '+1 555 0140', email: 'maria.santos@mail.example', service: 'Deep tissue massage', starts_at: '2025-06-02T09:00:00Z', created_at: '2025-05-20T10:00:00Z' },
  { id: 2, full_name: 'Tom Becker', phone: '+1 555 0141', email: 'tom.becker@mail.example', service: 'Facial', starts_at: '2025-06-02T11:00:00Z', created_at: '2025-05-21T10:00:00Z' },
];
const APPOINTMENTS = [
  { id: 7, patient_name: 'Lena Vogel', patient_phone: '+1 555 0170', patient_email: 'lena.vogel@mail.example', reason: 'Check-up', slot: '2025-07-01T08:30:00Z' },
  { id: 8, patient_name: 'Omar Haddad', patient_phone: '+1 555 0171', patient_email: 'omar.haddad@mail.example', reason: 'Vaccination', slot: '2025-07-01T09:00:00Z' },
];

/**
 * The project URL and key as a lazy chunk builds them at run time (a config service, an env object merged from
 * pieces): neither appears whole in any file, so only the requests the page makes reveal the project.
 */
function runtimeClient(ctx: CorpusContext, ref: string): string {
  const url = new URL(ctx.supabaseUrl!);
  const parts = anonKey(ref, 31).split('.');
  return (
    `const Hs=[${url.hostname.split('.').map((p) => JSON.stringify(p)).join(',')}].join("."),Pt=${url.port},` +
    `Kp=[${parts.map((p) => JSON.stringify(p)).join(',')}].join("."),Ub=["http:","",Hs+":"+Pt].join("/");` +
    `function sb(t){return fetch(Ub+"/rest/v1/"+t+"?select=*&order=id.asc",{headers:{apikey:Kp,Authorization:"Bearer "+Kp,"x-client-info":"supabase-js-web/2.49.4"}}).then(r=>r.ok?r.json():[])}`
  );
}

/** A Vite shell whose entry only routes: each page is a lazy chunk (dynamic import()). */
function lazyApp(title: string, entry: string, chunks: Record<string, string>): Record<string, CorpusResponse> {
  const files: Record<string, CorpusResponse> = {
    '/': viteIndex(title),
    '/assets/index-C4mLq2Xa.js': { body: entry },
    '/assets/vendor-Ck2m9QpL.js': VENDOR_CHUNK,
    '/assets/index-B7dPq1rS.css': VITE_CSS,
  };
  for (const [name, body] of Object.entries(chunks)) files[`/assets/${name}`] = { body };
  // The host's SPA fallback: every other path is the shell.
  files['*'] = viteIndex(title);
  return files;
}

/** Spa booking app: the bookings page is a lazy chunk whose effect loads today's bookings after a short delay. */
function bookingsApp(ctx: CorpusContext): Record<string, CorpusResponse> {
  const entry =
    `import{r as c}from"./vendor-Ck2m9QpL.js";const Rt={"/":()=>import("./Bookings-D9qL2xPa.js")};` +
    `async function boot(){const e=Rt[location.pathname];if(!e)return;const m=await e();m.mount(document.getElementById("root"))}boot();`;
  const page =
    runtimeClient(ctx, 'serenityspa') +
    `export function mount(e){e.textContent="Loading today's bookings…";` +
    // The effect waits for the skeleton's one-second fade-in before it queries: the request starts well after the page went quiet.
    `setTimeout(()=>{sb("bookings").then(n=>{e.textContent=n.length+" bookings today"}).catch(()=>{e.textContent="Could not load bookings"})},1000)}`;
  return lazyApp('Serenity Spa', entry, { 'Bookings-D9qL2xPa.js': page });
}

/**
 * Clinic app: the router boots in an idle callback and redirects / to /dashboard, whose lazy chunk waits for the
 * auth session (a Web Lock, as supabase-js takes) and a minimum splash time before it lists the day's appointments.
 */
function clinicApp(ctx: CorpusContext): Record<string, CorpusResponse> {
  const entry =
    `import{r as c}from"./vendor-Ck2m9QpL.js";const Rt={"/dashboard":()=>import("./Dashboard-Qm3xT8aL.js")};` +
    `function go(){if(location.pathname==="/")history.replaceState(null,"","/dashboard");const e=Rt[location.pathname];if(e)e().then(m=>m.mount(document.getElementById("root")))}` +
    `(window.requestIdleCallback||(f=>setTimeout(f,1)))(go);`;
  const page =
    runtimeClient(ctx, 'brightclinic') +
    `function getSession(){const r=()=>({data:{session:JSON.parse(localStorage.getItem("sb-brightclinic-auth-token")||"null")}});return navigator.locks?navigator.locks.request("lock:sb-brightclinic-auth-token",r):Promise.resolve(r())}` +
    `const splash=()=>new Promise(r=>setTimeout(r,800));` +
    `export function mount(e){e.textContent="Loading…";getSession().then(s=>splash().then(()=>sb("appointments"))).then(n=>{e.textContent=n.length+" appointments"}).catch(()=>{e.textContent="Could not load"})}`;
  return lazyApp('Bright Clinic', entry, { 'Dashboard-Qm3xT8aL.js': page });
}

export const APPS: CorpusApp[] = [
  {
    id: 'vite-supabase-late-query-lazy-chunk',
    shape: 'vite-supabase',
    title: 'SPA whose lazy chunk assembles the Supabase URL and key at run time and queries a table without RLS after a short timer',
    render: true,
    supabase: { tables: { bookings: BOOKINGS } },
    expect: [{ checkId: 'supabase-table-readable', minSeverity: 'high' }],
    routes: bookingsApp,
  },
  {
    id: 'vite-supabase-late-query-redirect-session',
    shape: 'vite-supabase',
    title: 'SPA that redirects to /dashboard from an idle callback, awaits the auth session and a splash, then reads a table without RLS',
    render: true,
    supabase: { tables: { appointments: APPOINTMENTS } },
    expect: [{ checkId: 'supabase-table-readable', minSeverity: 'high' }],
    routes: clinicApp,
  },
  {
    id: 'vite-supabase-clean-late-query-lazy-chunk',
    shape: 'vite-supabase',
    title: 'clean control: the same lazy-chunk booking app with row level security on its table',
    control: true,
    render: true,
    supabase: { tables: { bookings: { rows: BOOKINGS, rls: true } } },
    expect: [],
    routes: bookingsApp,
  },
  {
    id: 'vite-supabase-clean-late-query-redirect-session',
    shape: 'vite-supabase',
    title: 'clean control: the same redirecting clinic app with row level security on its table',
    control: true,
    render: true,
    supabase: { tables: { appointments: { rows: APPOINTMENTS, rls: true } } },
    expect: [],
    routes: clinicApp,
  },
];

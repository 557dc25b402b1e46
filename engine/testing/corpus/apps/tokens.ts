// Token, Supabase-read and public-by-design apps: JWTs signed with guessable secrets, unsigned or never expiring,
// Supabase buckets, functions and views that leak through the public key, server keys in bundles, and the clean
// controls that look like them done right. Keys and tokens are assembled at run time (engine/testing/fake-keys.ts,
// fake-jwts.ts), so nothing key-shaped is committed.
import { fakeSupabaseKey, fakeToken, HEX } from '../../fake-keys';
import { signedJwt, unsignedJwt } from '../../fake-jwts';
import { anonKey, htmlPage, nextChunks, nextPage, supabaseBundle, viteApp } from '../shapes';
import type { CorpusApp } from '../types';

const NOW = 1_763_900_000;
const USERS = [
  { id: '3f2b7c1e-8d4a-4e6b-9c2d-1a5f0e7b3c9d', email: 'mia@rentready.example', full_name: 'Mia Park', role: 'tenant', created_at: '2025-05-01T10:00:00Z' },
  { id: '9a7c4e2b-1f3d-4b8a-a6c5-2d9e8f1b0a7c', email: 'leo@rentready.example', full_name: 'Leo Ruiz', role: 'landlord', created_at: '2025-05-02T10:00:00Z' },
];
/** A secret no list holds: what `openssl rand -base64 48` gives, fixed so runs are reproducible. */
const STRONG_SECRET = fakeToken(64, undefined, 301);
const SUPABASE_LOCAL_DEFAULT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
const UPPERNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A Next.js document that also sets the app's own session cookie (what its middleware does on the first visit). */
const withSessionCookie = (page: ReturnType<typeof nextPage>, token: string) => ({
  ...page,
  headers: { 'set-cookie': `session=${token}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=604800` },
});

const VULNERABLE: CorpusApp[] = [
  {
    id: 'vite-supabase-bucket-list',
    shape: 'vite-supabase',
    title: "Lovable-style rental app whose private 'documents' bucket has a SELECT policy for anon: every tenant's folder can be listed",
    supabase: {
      tables: { applications: { rows: [{ id: 1, status: 'pending' }], rls: true } },
      buckets: [
        {
          name: 'documents',
          public: false,
          visibleToAnon: false,
          listable: true,
          files: { [`${USERS[0]!.id}/passport.pdf`]: '%PDF-1.7', [`${USERS[0]!.id}/payslip-2025-04.pdf`]: '%PDF-1.7', [`${USERS[1]!.id}/lease-agreement.pdf`]: '%PDF-1.7' },
        },
      ],
    },
    expect: [{ checkId: 'supabase-bucket-listable', path: '/storage/v1/object/list/documents', minSeverity: 'high' }],
    routes: (ctx) =>
      viteApp(
        'RentReady',
        supabaseBundle(
          ctx.supabaseUrl!,
          anonKey('rentready', 31),
          ['applications'],
          `async function up(e,t){const{data:n}=await Ve.auth.getUser();return Ve.storage.from("documents").upload(\`\${n.user.id}/\${t.name}\`,t)}`,
        ),
      ),
  },
  {
    id: 'vite-supabase-rpc-users',
    shape: 'vite-supabase',
    title: 'Bolt-style admin dashboard calling a SECURITY DEFINER function that returns every user to anyone with the anon key',
    supabase: {
      tables: { profiles: { rows: USERS, rls: true } },
      functions: { get_all_users: { returns: USERS }, get_my_profile: { returns: [] } },
    },
    expect: [{ checkId: 'supabase-rpc-exposed', path: '/rpc/get_all_users', minSeverity: 'high' }],
    routes: (ctx) =>
      viteApp(
        'RentReady Admin',
        supabaseBundle(
          ctx.supabaseUrl!,
          anonKey('rentadmin', 32),
          ['profiles'],
          `async function loadUsers(){const{data:e,error:t}=await Ve.rpc("get_all_users");if(t)throw t;return e}async function me(){return(await Ve.rpc("get_my_profile")).data}async function ban(e){return Ve.rpc("ban_user",{uid:e})}`,
        ),
      ),
  },
  {
    id: 'vite-supabase-view-leak',
    shape: 'vite-supabase',
    title: 'Supabase app reading a view that runs with its owner\'s rights: the base table has RLS, the view leaks every row',
    supabase: {
      tables: { profiles: { rows: USERS, rls: true }, public_profiles: { rows: USERS.map(({ id, email, full_name }) => ({ id, email, full_name })), view: true } },
    },
    expect: [{ checkId: 'supabase-table-readable', path: '/rest/v1/public_profiles', minSeverity: 'high' }],
    routes: (ctx) => viteApp('Roomies', supabaseBundle(ctx.supabaseUrl!, anonKey('roomies', 33), ['public_profiles', 'profiles'])),
  },
  {
    id: 'next-supabase-weak-jwt-cookie',
    shape: 'next-supabase',
    title: "Next.js + Supabase app whose middleware signs its own session cookie with the secret 'secret'",
    supabase: { tables: { listings: { rows: [{ id: 1, title: 'Loft' }], rls: true } } },
    expect: [{ checkId: 'jwt-weak-secret', minSeverity: 'critical' }],
    routes: (ctx) => ({
      '/': withSessionCookie(
        nextPage('Nestly', '<main><h1>Nestly</h1><a href="/saved">Saved homes</a></main>', { listings: [{ id: 1, title: 'Sunny loft' }] }),
        signedJwt({ sub: 'guest-4f1c9a', role: 'guest', iat: NOW, exp: NOW + 604_800 }, 'secret'),
      ),
      '/saved': nextPage('Saved', '<main><h1>Saved homes</h1></main>', {}, '/saved'),
      ...nextChunks({
        '/': `var r=n(1),o=n(2);const i=(0,o.createClient)("${ctx.supabaseUrl}","${anonKey('nestly', 34)}");t.default=function(){return i.from("listings").select("id,title").then(()=>r.jsx("main",{}))}`,
        '/saved': 'var r=n(1);t.default=function(){return r.jsx("main",{})}',
      }),
    }),
  },
  {
    id: 'vite-jwt-alg-none-bundle',
    shape: 'vite-supabase',
    title: 'Cursor-built dashboard that ships an unsigned (alg none) admin token its API accepts, for a "dev login" left in production',
    expect: [{ checkId: 'jwt-alg-none', minSeverity: 'high' }],
    routes: () =>
      viteApp(
        'OpsBoard',
        `import{r as c,j as s}from"./vendor-Ck2m9QpL.js";const DEV_ADMIN_TOKEN="${unsignedJwt({ sub: 'admin', role: 'admin', iat: NOW, exp: NOW + 31_536_000 })}";async function stats(){const e=await fetch("/api/stats",{headers:{Authorization:\`Bearer \${DEV_ADMIN_TOKEN}\`}});return e.json()}function App(){return s.jsx("main",{children:"OpsBoard"})}export{App,stats};`,
      ),
  },
  {
    id: 'vite-jwt-no-exp-localstorage',
    shape: 'vite-supabase',
    title: 'Vite app whose login stores a never-expiring access token in localStorage',
    render: true,
    expect: [{ checkId: 'jwt-no-expiry', minSeverity: 'medium' }],
    routes: () =>
      viteApp(
        'Habitly',
        `const t="${signedJwt({ sub: 'u_81f3', email: 'demo@habitly.example', plan: 'pro', iat: NOW }, STRONG_SECRET)}";function login(){localStorage.setItem("accessToken",t);document.getElementById("root").textContent="Welcome back"}login();`,
      ),
  },
  {
    id: 'vite-supabase-service-role-env',
    shape: 'vite-supabase',
    title: 'Lovable-style app whose inlined env object carries VITE_SUPABASE_SERVICE_ROLE_KEY next to the anon key',
    supabase: { tables: { profiles: { rows: USERS, rls: true } } },
    expect: [{ checkId: 'supabase-service-key', minSeverity: 'critical' }],
    routes: (ctx) =>
      viteApp(
        'TenantHub',
        `const Ie={BASE_URL:"/",MODE:"production",DEV:!1,PROD:!0,SSR:!1,VITE_SUPABASE_URL:"${ctx.supabaseUrl}",VITE_SUPABASE_ANON_KEY:"${anonKey('tenanthub', 35)}",VITE_SUPABASE_SERVICE_ROLE_KEY:"${fakeSupabaseKey('tenanthub', 'service_role', 36)}"};` +
          supabaseBundle(ctx.supabaseUrl!, anonKey('tenanthub', 35), ['profiles'], 'const adm=Ut(Ie.VITE_SUPABASE_URL,Ie.VITE_SUPABASE_SERVICE_ROLE_KEY);'),
      ),
  },
  {
    id: 'vite-supabase-selfhosted-default-secret',
    shape: 'vite-supabase',
    title: "Self-hosted Supabase left on the local default JWT secret: its anon key is forgeable, so is a service_role key",
    supabase: { tables: { notes: { rows: [{ id: 1 }], rls: true } } },
    expect: [{ checkId: 'jwt-weak-secret', minSeverity: 'critical' }],
    routes: (ctx) =>
      viteApp(
        'NoteNest',
        supabaseBundle(ctx.supabaseUrl!, signedJwt({ iss: 'supabase-demo', role: 'anon', exp: 1_983_812_996 }, SUPABASE_LOCAL_DEFAULT_SECRET), ['notes']),
      ),
  },
];

const CONTROLS: CorpusApp[] = [
  {
    id: 'vite-supabase-clean-3',
    shape: 'vite-supabase',
    title: 'clean control: the rental app done right: anon key only, RLS on, private buckets without a list policy, functions that return only the caller\'s rows',
    control: true,
    expect: [],
    supabase: {
      tables: { applications: { rows: [{ id: 1, status: 'pending' }], rls: true }, profiles: { rows: USERS, rls: true } },
      buckets: [
        { name: 'documents', public: false, visibleToAnon: false, files: { [`${USERS[0]!.id}/passport.pdf`]: '%PDF-1.7' } },
        { name: 'avatars', public: false, visibleToAnon: false },
      ],
      functions: { get_my_profile: { returns: [] }, get_all_users: { returns: [], anon: false } },
    },
    routes: (ctx) =>
      viteApp(
        'RentReady',
        supabaseBundle(
          ctx.supabaseUrl!,
          anonKey('rentready', 37),
          ['applications', 'profiles'],
          `async function up(e,t){const{data:n}=await Ve.auth.getUser();return Ve.storage.from("documents").upload(\`\${n.user.id}/\${t.name}\`,t)}async function me(){return(await Ve.rpc("get_my_profile")).data}async function all(){return(await Ve.rpc("get_all_users")).data}`,
        ),
      ),
  },
  {
    id: 'next-supabase-clean-2',
    shape: 'next-supabase',
    title: 'clean control: the Next.js app done right: its session cookie is signed with a long random secret and expires',
    control: true,
    expect: [],
    supabase: { tables: { listings: { rows: [{ id: 1, title: 'Loft' }], rls: true } } },
    routes: (ctx) => ({
      '/': withSessionCookie(
        nextPage('Nestly', '<main><h1>Nestly</h1><a href="/saved">Saved homes</a></main>', { listings: [{ id: 1, title: 'Sunny loft' }] }),
        signedJwt({ sub: 'guest-4f1c9a', role: 'guest', iat: NOW, exp: NOW + 3_600 }, STRONG_SECRET),
      ),
      '/saved': nextPage('Saved', '<main><h1>Saved homes</h1></main>', {}, '/saved'),
      ...nextChunks({
        '/': `var r=n(1),o=n(2);const i=(0,o.createClient)("${ctx.supabaseUrl}","${anonKey('nestly', 38)}");t.default=function(){return i.from("listings").select("id,title").then(()=>r.jsx("main",{}))}`,
        '/saved': 'var r=n(1);t.default=function(){return r.jsx("main",{})}',
      }),
    }),
  },
  {
    id: 'next-firebase-clean-2',
    shape: 'next-firebase',
    title: 'clean control: Next.js + Firebase app whose bundle holds only its web config, inlined from NEXT_PUBLIC_FIREBASE_* variables',
    control: true,
    expect: [],
    routes: () => ({
      '/': nextPage('Tasktide', '<main><h1>Tasktide</h1><a href="/login">Sign in</a></main>', { features: ['boards', 'reminders'] }),
      '/login': nextPage('Sign in', '<main><h1>Sign in</h1></main>', {}, '/login'),
      ...nextChunks({
        '/': `var r=n(1),o=n(3),a=n(4);const c={NEXT_PUBLIC_FIREBASE_API_KEY:"${'AIza' + fakeToken(35, undefined, 302)}",NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN:"tasktide-7c2e1.firebaseapp.com",NEXT_PUBLIC_FIREBASE_PROJECT_ID:"tasktide-7c2e1",NEXT_PUBLIC_FIREBASE_STORAGE_BUCKET:"tasktide-7c2e1.firebasestorage.app",NEXT_PUBLIC_FIREBASE_MESSAGING_SENDER_ID:"918273645501",NEXT_PUBLIC_FIREBASE_APP_ID:"1:918273645501:web:${fakeToken(22, HEX, 303)}",NEXT_PUBLIC_FIREBASE_MEASUREMENT_ID:"G-${fakeToken(10, UPPERNUM, 304)}"};const f=(0,o.initializeApp)({apiKey:c.NEXT_PUBLIC_FIREBASE_API_KEY,authDomain:c.NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN,projectId:c.NEXT_PUBLIC_FIREBASE_PROJECT_ID,storageBucket:c.NEXT_PUBLIC_FIREBASE_STORAGE_BUCKET,messagingSenderId:c.NEXT_PUBLIC_FIREBASE_MESSAGING_SENDER_ID,appId:c.NEXT_PUBLIC_FIREBASE_APP_ID,measurementId:c.NEXT_PUBLIC_FIREBASE_MEASUREMENT_ID}),u=(0,a.getAuth)(f);t.default=function(){return r.jsx("main",{})}`,
        '/login': 'var r=n(1),a=n(4);t.default=function(){return r.jsx("form",{onSubmit:e=>(0,a.signInWithEmailAndPassword)(e)})}',
      }),
    }),
  },
  {
    id: 'static-clean-3',
    shape: 'static',
    title: 'clean control: a SaaS landing page with Stripe pk_, a Sentry DSN, PostHog, Segment, Mixpanel and Google Analytics keys',
    control: true,
    expect: [],
    routes: () => ({
      '/': htmlPage(
        'Launchpad',
        '<h1>Launchpad</h1><p>Ship your waitlist in a day.</p><a href="/pricing">Pricing</a><button id="buy">Buy</button>',
        '<script src="/assets/site-9c1f2e.js" defer></script>',
      ),
      '/pricing': htmlPage('Pricing', '<h1>Pricing</h1><p>$9 a month.</p><a href="/">Home</a>', '<script src="/assets/site-9c1f2e.js" defer></script>'),
      '/assets/site-9c1f2e.js': {
        body:
          `const cfg={stripeKey:"${'pk_' + 'live_' + fakeToken(99, undefined, 305)}",sentryDsn:"https://${fakeToken(32, HEX, 306)}@o4508123.ingest.de.sentry.io/4508123456789",posthogKey:"${'phc_' + fakeToken(43, undefined, 307)}",segmentWriteKey:"${fakeToken(32, undefined, 308)}",mixpanelToken:"${fakeToken(32, HEX, 309)}",gaId:"G-${fakeToken(10, UPPERNUM, 310)}"};` +
          'Sentry.init({dsn:cfg.sentryDsn,tracesSampleRate:.1});posthog.init(cfg.posthogKey,{api_host:"https://eu.i.posthog.com"});analytics.load(cfg.segmentWriteKey);mixpanel.init(cfg.mixpanelToken);gtag("config",cfg.gaId);' +
          'document.getElementById("buy")?.addEventListener("click",async()=>{const s=await loadStripe(cfg.stripeKey);s.redirectToCheckout({sessionId:"cs_from_server"})});',
      },
    }),
  },
];

export const APPS: CorpusApp[] = [...VULNERABLE, ...CONTROLS];

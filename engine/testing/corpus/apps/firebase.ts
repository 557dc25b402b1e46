// Firebase apps: Next.js and Vite apps whose Security Rules were left in test mode (Firestore collections, the
// Realtime Database, a Storage bucket readable by anyone), and the same apps with their rules locked. Their Firebase
// traffic goes to the Firebase stand-in under Google's real host names (CorpusApp.firebase); API keys are assembled at
// run time (engine/testing/fake-keys.ts), so nothing key-shaped is committed.
import { fakeToken, HEX } from '../../fake-keys';
import type { FirebaseStandInOptions } from '../../firebase-stand-in';
import { nextChunks, nextPage, viteIndex, VITE_CSS } from '../shapes';
import type { CorpusApp, CorpusResponse } from '../types';

interface WebConfig {
  projectId: string;
  seed: number;
  databaseURL?: string;
  storageBucket?: string;
}

/** The web config the Firebase console hands out, as a bundler leaves it (keys in the order the console lists them). */
function webConfig({ projectId, seed, databaseURL, storageBucket }: WebConfig): string {
  const sender = String(400_000_000_000 + seed * 7_919_113);
  return (
    `{apiKey:"${'AIza' + fakeToken(35, undefined, 500 + seed)}",authDomain:"${projectId}.firebaseapp.com",` +
    (databaseURL ? `databaseURL:"${databaseURL}",` : '') +
    `projectId:"${projectId}",storageBucket:"${storageBucket ?? `${projectId}.firebasestorage.app`}",messagingSenderId:"${sender}",` +
    `appId:"1:${sender}:web:${fakeToken(22, HEX, 600 + seed)}"}`
  );
}

/** The vendor chunk of a Vite + React + Firebase app: opaque SDK stubs, no config. */
const FIREBASE_VENDOR: CorpusResponse = {
  body: 'function Zt(e){return{options:e}}function Yt(e){return{app:e}}function Xt(e,t){return{db:e,path:t}}const c={useState:e=>[e,()=>{}],useEffect:()=>{}},s={jsx:(e,t)=>({e,t})};export{c as r,s as j,Zt as i,Yt as g,Xt as f};',
};

/** A Vite app (Bolt / Lovable shape) whose entry chunk initialises Firebase and runs `body`. */
function viteFirebaseApp(title: string, config: WebConfig, body: string): Record<string, CorpusResponse> {
  return {
    '/': viteIndex(title, '/assets/index-Dq7mZ2pK.js'),
    '/assets/index-Dq7mZ2pK.js': {
      body: `import{r as c,j as s,i as Zt,g as Yt,f as Xt}from"./vendor-Hk3vT8nW.js";const Ke=${webConfig(config)},Fe=Zt(Ke);${body}`,
    },
    '/assets/vendor-Hk3vT8nW.js': FIREBASE_VENDOR,
    '/assets/index-B7dPq1rS.css': VITE_CSS,
  };
}

const GIGBOARD: WebConfig = { projectId: 'gigboard-4f1a2', seed: 1 };
const GIGBOARD_DATA: Pick<FirebaseStandInOptions, 'firestore' | 'storage'> = {
  firestore: {
    users: {
      Xk2pQ9vLm3: { email: 'ana@gigboard.example', displayName: 'Ana Lima', phone: '+1 555 0142', role: 'freelancer', stripeCustomerId: 'cus_Q8mTz2LkP1' },
      R7tWc4nB8s: { email: 'raj@gigboard.example', displayName: 'Raj Patel', phone: '+1 555 0178', role: 'client', stripeCustomerId: 'cus_Q8mV3kDd9A' },
    },
    gigs: { g1: { title: 'Landing page in Framer', budget: 400, ownerId: 'R7tWc4nB8s', status: 'open' } },
  },
  storage: { bucket: 'gigboard-4f1a2.firebasestorage.app', objects: ['portfolios/Xk2pQ9vLm3/case-study.pdf'] },
};
/** The Next.js pages of Gigboard: the home page lists gigs, the account page reads the signed-in user's document. */
function gigboardRoutes(): Record<string, CorpusResponse> {
  return {
    '/': nextPage('Gigboard', '<main><h1>Gigboard</h1><a href="/account">Account</a></main>', { categories: ['design', 'dev', 'copy'] }),
    '/account': nextPage('Account', '<main><h1>Your account</h1></main>', {}, '/account'),
    ...nextChunks({
      '/': `var r=n(1),o=n(3),a=n(5);const c=${webConfig(GIGBOARD)},f=(0,o.initializeApp)(c),d=(0,a.getFirestore)(f);t.default=function(){return(0,a.getDocs)((0,a.query)((0,a.collection)(d,"gigs"),(0,a.where)("status","==","open"))).then(()=>r.jsx("main",{}))}`,
      '/account': `var r=n(1),a=n(5),u=n(6);t.default=function(){const e=(0,u.getAuth)().currentUser;return(0,a.getDoc)((0,a.doc)((0,a.getFirestore)(),"users",e.uid)).then(()=>r.jsx("main",{}))}`,
    }),
  };
}

const CHATNEST_DB = 'https://chatnest-9b3e1-default-rtdb.europe-west1.firebasedatabase.app';
const CHATNEST: WebConfig = { projectId: 'chatnest-9b3e1', seed: 2, databaseURL: CHATNEST_DB };
const CHATNEST_DATA: Pick<FirebaseStandInOptions, 'database' | 'databaseUrl'> = {
  databaseUrl: CHATNEST_DB,
  database: {
    users: { u1: { email: 'kim@chatnest.example', name: 'Kim' }, u2: { email: 'sam@chatnest.example', name: 'Sam' } },
    rooms: { general: { title: 'General', members: { u1: true, u2: true } } },
    messages: { general: { m1: { from: 'u1', text: 'hi' } } },
  },
};
const CHATNEST_ENTRY =
  'const Db=Yt(Fe);function App(){const[e,t]=c.useState([]);return c.useEffect(()=>{Xt(Db,"messages/general")},[]),s.jsx("main",{children:e.map(n=>s.jsx("p",{children:n.text},n.id))})}';

const SNAPSHARE: WebConfig = { projectId: 'snapshare-21c7d', seed: 3, storageBucket: 'snapshare-21c7d.appspot.com' };
const SNAPSHARE_DATA: Pick<FirebaseStandInOptions, 'storage'> = {
  storage: {
    bucket: 'snapshare-21c7d.appspot.com',
    objects: ['uploads/Hq8LmT2x/IMG_2041.jpg', 'uploads/Hq8LmT2x/passport-scan.png', 'uploads/Vb3nKp7Z/receipt-march.pdf', 'avatars/Hq8LmT2x.jpg'],
  },
};
const SNAPSHARE_ENTRY =
  'function App(){const[e,t]=c.useState(null);return s.jsx("input",{type:"file",onChange:n=>t(n.target.files[0])})}';

const VULNERABLE: CorpusApp[] = [
  {
    id: 'next-firebase-firestore-users',
    shape: 'next-firebase',
    title: 'Next.js freelance marketplace on Firestore in test mode (allow read: if true): every user document, with emails and phone numbers, can be listed',
    expect: [
      // Emails and phone numbers: high. The open gig listings are public content: found, rated low.
      { checkId: 'firebase-firestore-readable', path: 'documents/users', minSeverity: 'high' },
      { checkId: 'firebase-firestore-readable', path: 'documents/gigs' },
    ],
    firebase: { projectId: GIGBOARD.projectId, ...GIGBOARD_DATA, rules: { firestore: 'open' } },
    routes: gigboardRoutes,
  },
  {
    id: 'vite-firebase-rtdb-open',
    shape: 'vite-firebase',
    title: 'Bolt-style chat app whose Realtime Database rules are ".read": true: users, rooms and messages readable from the root',
    expect: [{ checkId: 'firebase-rtdb-readable', path: 'chatnest-9b3e1-default-rtdb', minSeverity: 'high' }],
    firebase: { projectId: CHATNEST.projectId, ...CHATNEST_DATA, rules: { database: 'open' } },
    routes: () => viteFirebaseApp('Chatnest', CHATNEST, CHATNEST_ENTRY),
  },
  {
    id: 'vite-firebase-storage-list',
    shape: 'vite-firebase',
    title: "Photo-sharing app whose storage.rules allow read: if true: the bucket lists every user's uploads, ID scans included",
    expect: [{ checkId: 'firebase-storage-listable', path: 'snapshare-21c7d.appspot.com', minSeverity: 'medium' }],
    firebase: { projectId: SNAPSHARE.projectId, ...SNAPSHARE_DATA, rules: { storage: 'open' } },
    routes: () => viteFirebaseApp('Snapshare', SNAPSHARE, SNAPSHARE_ENTRY),
  },
];

const CONTROLS: CorpusApp[] = [
  {
    id: 'next-firebase-clean-3',
    shape: 'next-firebase',
    title: 'clean control: the Firestore marketplace with its rules locked (request.auth required): Firestore and Storage answer 403',
    control: true,
    expect: [],
    firebase: { projectId: GIGBOARD.projectId, ...GIGBOARD_DATA, rules: { firestore: 'locked', storage: 'locked' } },
    routes: gigboardRoutes,
  },
  {
    id: 'vite-firebase-clean-4',
    shape: 'vite-firebase',
    title: 'clean control: the chat app with Realtime Database rules scoped to auth.uid: the root answers 401 Permission denied',
    control: true,
    expect: [],
    firebase: { projectId: CHATNEST.projectId, ...CHATNEST_DATA, rules: { database: 'locked' } },
    routes: () => viteFirebaseApp('Chatnest', CHATNEST, CHATNEST_ENTRY),
  },
  {
    id: 'vite-firebase-clean-5',
    shape: 'vite-firebase',
    title: 'clean control: the photo-sharing app with storage.rules scoped to the owner: listing the bucket answers 403',
    control: true,
    expect: [],
    firebase: { projectId: SNAPSHARE.projectId, ...SNAPSHARE_DATA, rules: { storage: 'locked' } },
    routes: () => viteFirebaseApp('Snapshare', SNAPSHARE, SNAPSHARE_ENTRY),
  },
];

export const APPS: CorpusApp[] = [...VULNERABLE, ...CONTROLS];

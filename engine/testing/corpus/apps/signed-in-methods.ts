// Signed-in scans of apps that do not sign in with Supabase: Firebase Auth apps (Bolt and v0 generate them with the
// modular SDK: signInWithEmailAndPassword, then ref(db, "users/" + uid) or doc(db, "orders", id)) whose rules say
// `auth != null`, so any signed-in user reads every user's records. Each is scanned as two test accounts (alice and
// bob, users of the Firebase stand-in); each has a clean twin whose rules say `auth.uid == $uid`, which must give
// nothing. API keys are assembled at run time (engine/testing/fake-keys.ts), so nothing key-shaped is committed.
import type { ScanAccount } from '../../../../common/scan-accounts';
import { fakeToken, HEX } from '../../fake-keys';
import type { FirebaseRules, FirebaseStandInOptions, FirebaseUser } from '../../firebase-stand-in';
import { viteIndex, VITE_CSS } from '../shapes';
import type { CorpusApp, CorpusResponse } from '../types';

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

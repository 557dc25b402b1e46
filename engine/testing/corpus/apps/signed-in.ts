// Signed-in scans: Supabase apps whose data is closed to anonymous visitors but open to any signed-in user, the hole
// AI coding tools leave most often behind the login. Each is scanned as two test accounts (alice and bob, users of the
// stand-in); each vulnerable app has a clean twin with owner-only policies, which must give nothing. Modelled on the
// apps Lovable and Bolt generate: a `profiles` table keyed by the auth user's id (the handle_new_user trigger), an
// `orders` table with user_id, a notes app reading through `get_notes(p_user_id)`, and a private `documents` bucket
// with one folder per user id (`${user.id}/${file.name}` as supabase.storage.from('documents').upload is called).
import type { ScanAccount } from '../../../../common/scan-accounts';
import type { StandInOptions, StandInUser } from '../../postgrest-stand-in';
import { anonKey, supabaseBundle, viteApp } from '../shapes';
import type { CorpusApp } from '../types';

const ALICE: StandInUser = { id: '0f8fad5b-d9cb-469f-a165-70867728950e', email: 'alice@example.test', password: 'Alice-Corpus-Pass-1' };
const BOB: StandInUser = { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', email: 'bob@example.test', password: 'Bob-Corpus-Pass-2' };
/** A third user, not a test account: her rows are what a test account must not see. */
const CAROL_ID = '3d6f0a2e-8b1c-4e5d-9f7a-2b4c6d8e0f1a';
const USERS = [ALICE, BOB];
const ACCOUNTS: ScanAccount[] = USERS.map((u) => ({ login: u.email, password: u.password }));

const PROFILES = [
  { id: ALICE.id, full_name: 'Alice Martin', email: ALICE.email, phone: '+33 6 12 34 56 78', avatar_url: null, created_at: '2025-05-01T09:00:00Z' },
  { id: BOB.id, full_name: 'Bob Chen', email: BOB.email, phone: '+1 415 555 0199', avatar_url: null, created_at: '2025-05-02T09:00:00Z' },
  { id: CAROL_ID, full_name: 'Carol Diaz', email: 'carol.diaz@mail.example', phone: '+34 612 345 678', avatar_url: null, created_at: '2025-05-03T09:00:00Z' },
];
const ORDERS = [
  { id: 'a1b2c3d4-0001-4a5b-8c9d-0e1f2a3b4c5d', user_id: BOB.id, total_cents: 4900, status: 'paid', shipping_address: '221B Baker Street, London', created_at: '2025-06-01T10:00:00Z' },
  { id: 'a1b2c3d4-0002-4a5b-8c9d-0e1f2a3b4c5d', user_id: ALICE.id, total_cents: 1900, status: 'shipped', shipping_address: '12 Rue de Rivoli, Paris', created_at: '2025-06-02T10:00:00Z' },
  { id: 'a1b2c3d4-0003-4a5b-8c9d-0e1f2a3b4c5d', user_id: CAROL_ID, total_cents: 12900, status: 'paid', shipping_address: 'Calle Mayor 5, Madrid', created_at: '2025-06-03T10:00:00Z' },
];
const NOTES = [
  { id: 1, user_id: ALICE.id, title: 'Therapy', body: 'Session notes: anxiety about the move', created_at: '2025-06-01T08:00:00Z' },
  { id: 2, user_id: BOB.id, title: 'Bank', body: 'New PIN for the joint account', created_at: '2025-06-02T08:00:00Z' },
];
const notesOf = (id: string | undefined) => NOTES.filter((n) => n.user_id === id);

const profilesBundle = (url: string, key: string) => supabaseBundle(url, key, ['profiles']);
const shopBundle = (url: string, key: string) => supabaseBundle(url, key, ['orders', 'products']);
const notesBundle = (url: string, key: string) =>
  supabaseBundle(url, key, ['notes'], `async function myNotes(e){const{data:t,error:n}=await Ve.rpc("get_notes",{p_user_id:e.id});if(n)throw n;return t}`);
const vaultBundle = (url: string, key: string) =>
  supabaseBundle(url, key, ['profiles'], `async function upload(e,t){const n=\`\${e.id}/\${t.name}\`;return Ve.storage.from("documents").upload(n,t)}async function files(e){return Ve.storage.from("documents").list(e.id)}`);

const PRODUCTS = [{ id: 1, name: 'Ceramic mug', price_cents: 1900, image_url: '/mug.jpg' }];

const supabase = (options: StandInOptions): StandInOptions => ({ users: USERS, ...options });

const documents = (signedInList: 'authenticated' | 'owner') =>
  supabase({
    tables: { profiles: { rows: PROFILES, read: 'owner', owner: 'id' } },
    buckets: [{ name: 'documents', public: false, visibleToAnon: false, signedInList, files: { [`${ALICE.id}/passport.pdf`]: 'x', [`${BOB.id}/lease-contract.pdf`]: 'y', [`${CAROL_ID}/tax-return-2024.pdf`]: 'z' } }],
  });

const notes = (ownerOnlyFunction: boolean) =>
  supabase({
    tables: { notes: { rows: NOTES, read: 'owner' } },
    functions: {
      get_notes: {
        params: ['p_user_id'],
        anon: false,
        // SECURITY DEFINER without a check returns anyone's notes; done right it compares p_user_id with auth.uid().
        returns: (args: Record<string, string>, caller: { role: string; sub?: string }) => (ownerOnlyFunction && args.p_user_id !== caller.sub ? [] : notesOf(args.p_user_id)),
      },
    },
  });

const VULNERABLE: CorpusApp[] = [
  {
    id: 'vite-supabase-signed-in-profiles-any-user',
    shape: 'vite-supabase',
    title: "Lovable-style app whose profiles policy is `to authenticated using (true)`: any signed-in user reads every user's name, email and phone",
    accounts: ACCOUNTS,
    supabase: supabase({ tables: { profiles: { rows: PROFILES, read: 'authenticated', owner: 'id' } } }),
    expect: [{ checkId: 'supabase-cross-user-read', path: '/rest/v1/profiles', minSeverity: 'high' }],
    routes: (ctx) => viteApp('Circle', profilesBundle(ctx.supabaseUrl!, anonKey('circle', 61))),
  },
  {
    id: 'vite-supabase-signed-in-orders-any-user',
    shape: 'vite-supabase',
    title: "Bolt-style shop whose orders policy is `using (auth.uid() is not null)`: any customer reads every customer's orders and addresses",
    accounts: ACCOUNTS,
    supabase: supabase({ tables: { orders: { rows: ORDERS, read: 'authenticated' }, products: { rows: PRODUCTS, read: 'public' } } }),
    expect: [{ checkId: 'supabase-cross-user-read', path: '/rest/v1/orders', minSeverity: 'medium' }],
    routes: (ctx) => viteApp('Kiln Shop', shopBundle(ctx.supabaseUrl!, anonKey('kilnshop', 62))),
  },
  {
    id: 'vite-supabase-signed-in-notes-function-any-user',
    shape: 'vite-supabase',
    title: "Notes app whose notes table is owner-only, but whose SECURITY DEFINER get_notes(p_user_id) returns any user's notes",
    accounts: ACCOUNTS,
    supabase: notes(false),
    expect: [{ checkId: 'supabase-cross-user-read', path: '/rpc/get_notes', minSeverity: 'medium' }],
    routes: (ctx) => viteApp('Jotter', notesBundle(ctx.supabaseUrl!, anonKey('jotter', 63))),
  },
  {
    id: 'vite-supabase-signed-in-documents-bucket-any-user',
    shape: 'vite-supabase',
    title: "Document vault whose private documents bucket lets any signed-in user list every user's folder (passports, contracts)",
    accounts: ACCOUNTS,
    supabase: documents('authenticated'),
    expect: [{ checkId: 'supabase-cross-user-read', path: '/object/list/documents', minSeverity: 'high' }],
    routes: (ctx) => viteApp('Vaultly', vaultBundle(ctx.supabaseUrl!, anonKey('vaultly', 64))),
  },
  {
    id: 'vite-supabase-signed-in-orders-one-account',
    shape: 'vite-supabase',
    title: "The same shop scanned with one account: orders of users other than the account's own are the proof",
    accounts: ACCOUNTS.slice(0, 1),
    supabase: supabase({ tables: { orders: { rows: ORDERS, read: 'authenticated' }, products: { rows: PRODUCTS, read: 'public' } } }),
    expect: [{ checkId: 'supabase-cross-user-read', path: '/rest/v1/orders', minSeverity: 'medium' }],
    routes: (ctx) => viteApp('Kiln Shop', shopBundle(ctx.supabaseUrl!, anonKey('kilnshop', 65))),
  },
];

const CONTROLS: CorpusApp[] = [
  {
    id: 'vite-supabase-clean-signed-in-profiles',
    shape: 'vite-supabase',
    title: 'clean control: the same profiles with `using (auth.uid() = id)`: each account reads its own profile only',
    control: true,
    accounts: ACCOUNTS,
    supabase: supabase({ tables: { profiles: { rows: PROFILES, read: 'owner', owner: 'id' } } }),
    expect: [],
    routes: (ctx) => viteApp('Circle', profilesBundle(ctx.supabaseUrl!, anonKey('circle', 66))),
  },
  {
    id: 'vite-supabase-clean-signed-in-orders',
    shape: 'vite-supabase',
    title: 'clean control: orders with `using (auth.uid() = user_id)`; the product catalogue is public',
    control: true,
    accounts: ACCOUNTS,
    supabase: supabase({ tables: { orders: { rows: ORDERS, read: 'owner' }, products: { rows: PRODUCTS, read: 'public' } } }),
    expect: [],
    routes: (ctx) => viteApp('Kiln Shop', shopBundle(ctx.supabaseUrl!, anonKey('kilnshop', 67))),
  },
  {
    id: 'vite-supabase-clean-signed-in-orders-one-account',
    shape: 'vite-supabase',
    title: 'clean control: the owner-only shop scanned with one account, which reads only its own order',
    control: true,
    accounts: ACCOUNTS.slice(0, 1),
    supabase: supabase({ tables: { orders: { rows: ORDERS, read: 'owner' }, products: { rows: PRODUCTS, read: 'public' } } }),
    expect: [],
    routes: (ctx) => viteApp('Kiln Shop', shopBundle(ctx.supabaseUrl!, anonKey('kilnshop', 70))),
  },
  {
    id: 'vite-supabase-clean-signed-in-notes-function',
    shape: 'vite-supabase',
    title: "clean control: get_notes(p_user_id) returns nothing unless p_user_id = auth.uid()",
    control: true,
    accounts: ACCOUNTS,
    supabase: notes(true),
    expect: [],
    routes: (ctx) => viteApp('Jotter', notesBundle(ctx.supabaseUrl!, anonKey('jotter', 68))),
  },
  {
    id: 'vite-supabase-clean-signed-in-documents-bucket',
    shape: 'vite-supabase',
    title: "clean control: the documents bucket lists only the user's own folder (`(storage.foldername(name))[1] = auth.uid()::text`)",
    control: true,
    accounts: ACCOUNTS,
    supabase: documents('owner'),
    expect: [],
    routes: (ctx) => viteApp('Vaultly', vaultBundle(ctx.supabaseUrl!, anonKey('vaultly', 69))),
  },
];

export const APPS: CorpusApp[] = [...VULNERABLE, ...CONTROLS];

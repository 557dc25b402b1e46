// Active scans (`--active`) of Supabase apps whose sign-up is open to anyone, as new Supabase projects are: the scan
// creates one throwaway account and reads as it. No test account is given: what a stranger can read after a sign-up is
// the point. Modelled on Lovable/Bolt apps: a `profiles` table filled by the `handle_new_user` trigger (so the new
// account gets its own profile row), and a private `documents` bucket with one folder per user id. Each vulnerable
// app has a clean twin: the same app with owner-only policies, with sign-up closed, or with email confirmation on
// (a throwaway account could not sign in, so none is created).
import type { StandInOptions, StandInUser } from '../../postgrest-stand-in';
import { anonKey, supabaseBundle, viteApp } from '../shapes';
import type { CorpusApp } from '../types';

const MAYA_ID = '5b2c8e1a-3f4d-4c6b-9a7e-1d2f3a4b5c6d';
const THEO_ID = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
const USERS: StandInUser[] = [
  { id: MAYA_ID, email: 'maya.okafor@mail.example', password: 'Maya-Corpus-Pass-7' },
  { id: THEO_ID, email: 'theo.lindqvist@mail.example', password: 'Theo-Corpus-Pass-8' },
];

const PROFILES = [
  { id: MAYA_ID, full_name: 'Maya Okafor', email: 'maya.okafor@mail.example', phone: '+44 7700 900123', avatar_url: null, created_at: '2025-04-01T09:00:00Z' },
  { id: THEO_ID, full_name: 'Theo Lindqvist', email: 'theo.lindqvist@mail.example', phone: '+46 70 123 45 67', avatar_url: null, created_at: '2025-04-02T09:00:00Z' },
];
/** The `handle_new_user` trigger: a profile row for each new account, with its id and email. */
const newProfile = (user: { id: string; email: string }) => ({ id: user.id, full_name: null, email: user.email, phone: null, avatar_url: null, created_at: '2025-07-01T09:00:00Z' });

const profiles = (signUp: StandInOptions['signUp'], read: 'authenticated' | 'owner'): StandInOptions => ({
  users: USERS,
  signUp,
  tables: { profiles: { rows: PROFILES, read, owner: 'id', newUserRow: newProfile } },
});

const documents = (signUp: StandInOptions['signUp'], signedInList: 'authenticated' | 'owner'): StandInOptions => ({
  users: USERS,
  signUp,
  tables: { profiles: { rows: PROFILES, read: 'owner', owner: 'id', newUserRow: newProfile } },
  buckets: [{ name: 'documents', public: false, visibleToAnon: false, signedInList, files: { [`${MAYA_ID}/passport-scan.pdf`]: 'x', [`${THEO_ID}/payslip-2025-06.pdf`]: 'y' } }],
});

const profilesBundle = (url: string, key: string) => supabaseBundle(url, key, ['profiles']);
const vaultBundle = (url: string, key: string) =>
  supabaseBundle(url, key, ['profiles'], `async function upload(e,t){const n=\`\${e.id}/\${t.name}\`;return Ve.storage.from("documents").upload(n,t)}async function files(e){return Ve.storage.from("documents").list(e.id)}`);

const VULNERABLE: CorpusApp[] = [
  {
    id: 'vite-supabase-signup-open-profiles-any-user',
    shape: 'vite-supabase',
    title: "Lovable-style community app: anyone can sign up (auto-confirm) and profiles are `to authenticated using (true)`, so a stranger's new account reads every member's email and phone",
    active: true,
    supabase: profiles('auto', 'authenticated'),
    expect: [{ checkId: 'supabase-signup-read', path: '/rest/v1/profiles', minSeverity: 'high' }],
    routes: (ctx) => viteApp('Neighbourly', profilesBundle(ctx.supabaseUrl!, anonKey('neighbourly', 71))),
  },
  {
    id: 'vite-supabase-signup-open-documents-bucket',
    shape: 'vite-supabase',
    title: "Document vault with open sign-up whose private documents bucket any signed-in user can list: a stranger signs up and sees every user's folder",
    active: true,
    supabase: documents('auto', 'authenticated'),
    expect: [{ checkId: 'supabase-signup-read', path: '/object/list/documents', minSeverity: 'high' }],
    routes: (ctx) => viteApp('Paperbox', vaultBundle(ctx.supabaseUrl!, anonKey('paperbox', 72))),
  },
];

const CONTROLS: CorpusApp[] = [
  {
    id: 'vite-supabase-clean-signup-open-profiles-owner',
    shape: 'vite-supabase',
    title: 'clean control: sign-up open (auto-confirm) but profiles `using (auth.uid() = id)`: the new account reads only its own profile',
    control: true,
    active: true,
    supabase: profiles('auto', 'owner'),
    expect: [],
    routes: (ctx) => viteApp('Neighbourly', profilesBundle(ctx.supabaseUrl!, anonKey('neighbourly', 73))),
  },
  {
    id: 'vite-supabase-clean-signup-confirm-profiles',
    shape: 'vite-supabase',
    title: 'clean control: profiles are `to authenticated using (true)`, but new accounts must confirm their email: no throwaway account can sign in, none is created',
    control: true,
    active: true,
    supabase: profiles('confirm', 'authenticated'),
    expect: [],
    routes: (ctx) => viteApp('Neighbourly', profilesBundle(ctx.supabaseUrl!, anonKey('neighbourly', 74))),
  },
  {
    id: 'vite-supabase-clean-signup-open-documents-owner',
    shape: 'vite-supabase',
    title: "clean control: sign-up open, the documents bucket lists only the user's own folder (`(storage.foldername(name))[1] = auth.uid()::text`)",
    control: true,
    active: true,
    supabase: documents('auto', 'owner'),
    expect: [],
    routes: (ctx) => viteApp('Paperbox', vaultBundle(ctx.supabaseUrl!, anonKey('paperbox', 75))),
  },
  {
    id: 'vite-supabase-clean-signup-closed-documents',
    shape: 'vite-supabase',
    title: 'clean control: the same vault with sign-up closed (an invite-only app): no stranger can get an account, so no throwaway account is made',
    control: true,
    active: true,
    supabase: documents('closed', 'authenticated'),
    expect: [],
    routes: (ctx) => viteApp('Paperbox', vaultBundle(ctx.supabaseUrl!, anonKey('paperbox', 76))),
  },
];

export const APPS: CorpusApp[] = [...VULNERABLE, ...CONTROLS];

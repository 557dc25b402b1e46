// Core apps: weaknesses the existing checks cover (headers, cookies, CORS, exposed files, secrets, libraries,
// Supabase, Firebase), in the shapes AI coding tools produce, and the clean controls that look like them done right.
import { anonKey, htmlPage, supabaseBundle, VENDOR_CHUNK, viteIndex, VITE_CSS } from '../shapes';
import type { CorpusApp } from '../types';

const PROFILES = [
  { id: 1, email: 'ann@petpal.example', full_name: 'Ann Lee', phone: '+1 555 0100', created_at: '2025-03-01T10:00:00Z' },
  { id: 2, email: 'bo@petpal.example', full_name: 'Bo Chen', phone: '+1 555 0101', created_at: '2025-03-02T10:00:00Z' },
];

export const APPS: CorpusApp[] = [
  {
    id: 'vite-supabase-rls-off',
    shape: 'vite-supabase',
    title: 'Lovable-style app whose profiles table has no row level security, read with the anon key',
    supabase: { tables: { profiles: PROFILES } },
    expect: [{ checkId: 'supabase-table-readable', minSeverity: 'high' }],
    routes: (ctx) => ({
      '/': viteIndex('PetPal'),
      '/assets/index-C4mLq2Xa.js': { body: supabaseBundle(ctx.supabaseUrl!, anonKey('petpal'), ['profiles']) },
      '/assets/vendor-Ck2m9QpL.js': VENDOR_CHUNK,
      '/assets/index-B7dPq1rS.css': VITE_CSS,
    }),
  },
  {
    id: 'static-clean-1',
    shape: 'static',
    title: 'clean control: a static marketing site with good headers',
    control: true,
    expect: [],
    routes: () => ({
      '/': htmlPage('Acme Analytics', '<h1>Acme Analytics</h1><p>Dashboards for small teams.</p><a href="/pricing">Pricing</a>'),
      '/pricing': htmlPage('Pricing', '<h1>Pricing</h1><p>Free for three seats.</p><a href="/">Home</a>'),
    }),
  },
];

// What a site reveals about its Firebase project: the web config (apiKey, authDomain, databaseURL, projectId,
// storageBucket) and the Firestore collection names its code and traffic use. Pure over retrieved texts.
import { collectTexts, type TextSource } from '../secrets/scan';
import type { SiteBeforeProbes } from '../types';
import type { NameOrigin, NamedThing } from './supabase';

export interface FirebaseConfig {
  projectId?: string;
  apiKey?: string;
  authDomain?: string;
  databaseURL?: string;
  storageBucket?: string;
}

export interface FirebaseInfo {
  configs: FirebaseConfig[];
  /** Realtime Database roots to probe (from configs, traffic, or the default name of a known project). */
  databaseUrls: string[];
  /** Firestore projects. */
  projectIds: string[];
  /** Cloud Storage buckets. */
  buckets: string[];
  collections: NamedThing[];
}

/** Collection names vibe-coded apps use most; probed after the ones the site itself names. */
export const COLLECTION_WORDLIST = ['users', 'profiles', 'posts', 'messages', 'orders', 'chats', 'comments', 'customers', 'payments', 'settings', 'admin', 'leads'] as const;

const FIELDS: Record<keyof FirebaseConfig, RegExp> = {
  projectId: /["']?(?:projectId|(?<![A-Z_])[A-Z_]*FIREBASE_PROJECT_ID)["']?\s{0,3}[:=]\s{0,3}["'`]([a-z0-9][a-z0-9-]{3,38}[a-z0-9])["'`]/,
  apiKey: /["']?(?:apiKey|(?<![A-Z_])[A-Z_]*FIREBASE_API_KEY)["']?\s{0,3}[:=]\s{0,3}["'`](AIza[\w-]{35})["'`]/,
  authDomain: /["']?(?:authDomain|(?<![A-Z_])[A-Z_]*FIREBASE_AUTH_DOMAIN)["']?\s{0,3}[:=]\s{0,3}["'`]([\w.-]{3,120})["'`]/,
  databaseURL: /["']?(?:databaseURL|(?<![A-Z_])[A-Z_]*FIREBASE_DATABASE_URL)["']?\s{0,3}[:=]\s{0,3}["'`](https:\/\/[\w.-]{3,200}?)\/?["'`]/,
  storageBucket: /["']?(?:storageBucket|(?<![A-Z_])[A-Z_]*FIREBASE_STORAGE_BUCKET)["']?\s{0,3}[:=]\s{0,3}["'`](?:gs:\/\/)?([\w.-]{3,222})["'`]/,
};
const ANCHOR = /["']?(?:projectId|(?<![A-Z_])[A-Z_]*FIREBASE_PROJECT_ID)["']?\s{0,3}[:=]\s{0,3}["'`]/g;
const RTDB_HOST = /https:\/\/[a-z0-9-]{3,80}(?:\.[a-z0-9-]{2,40})?\.(?:firebaseio\.com|firebasedatabase\.app)(?![\w.-])/g;
const COLLECTION_PATTERNS = [
  /\.collection\(\s{0,3}(["'`])([\w-]{1,64})\1/g,
  // Modular SDK: collection(db, "x"), doc(db, "x", id), collectionGroup(db, "x"); webpack keeps `(0,m.collection)(db,"x")`.
  /\b(?:collection|collectionGroup|doc)\)?\(\s{0,3}[\w$.]{1,40}\s{0,3},\s{0,3}(["'`])([\w-]{1,64})\1/g,
];

function isDatabaseUrl(url: string): boolean {
  return /^https:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)?\.(?:firebaseio\.com|firebasedatabase\.app)$/.test(url);
}

/** Firebase facts from texts. Exported for tests; checks use analyzeFirebase. */
export function extractFirebase(texts: readonly TextSource[]): FirebaseInfo {
  const configs: FirebaseConfig[] = [];
  const databaseUrls = new Set<string>();
  const projectIds = new Set<string>();
  const buckets = new Set<string>();
  const collections = new Map<string, NameOrigin>();

  for (const source of texts) {
    const { text } = source;
    if (source.kind === 'request') {
      const url = text.split('\n', 1)[0] ?? '';
      const project = /firestore\.googleapis\.com\/.*?projects(?:\/|%2F)([a-z0-9-]{4,40})(?:\/|%2F)databases/.exec(url)?.[1];
      if (project) projectIds.add(project);
      const bucket = /firebasestorage\.googleapis\.com\/v0\/b\/([\w.-]{3,222})\/o/.exec(url)?.[1];
      if (bucket) buckets.add(bucket);
      const rtdb = /^https:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)?\.(?:firebaseio\.com|firebasedatabase\.app)/.exec(url)?.[0];
      if (rtdb) databaseUrls.add(rtdb);
      const documentPath = /\/documents\/([\w-]{1,64})/.exec(url)?.[1];
      if (documentPath) collections.set(documentPath, 'traffic');
      continue;
    }
    if (text.includes('firebaseio.com') || text.includes('firebasedatabase.app')) {
      for (const m of text.matchAll(RTDB_HOST)) databaseUrls.add(m[0]);
    }
    if (text.includes('rojectId') || text.includes('PROJECT_ID')) {
      ANCHOR.lastIndex = 0;
      for (const anchor of text.matchAll(ANCHOR)) {
        const window = text.slice(Math.max(0, anchor.index - 800), anchor.index + 800);
        // A Firebase config has an AIza key or a Firebase host next to the project id.
        if (!/AIza|firebaseapp\.com|firebaseio\.com|appspot\.com|firebasestorage\.app|FIREBASE/.test(window)) continue;
        const config: FirebaseConfig = {};
        for (const field of Object.keys(FIELDS) as Array<keyof FirebaseConfig>) {
          const value = FIELDS[field].exec(window)?.[1];
          if (value) config[field] = value;
        }
        if (!config.projectId) continue;
        if (configs.some((c) => c.projectId === config.projectId && c.apiKey === config.apiKey)) continue;
        configs.push(config);
      }
    }
    if (text.includes('collection') || text.includes('doc(') || text.includes('doc)(')) {
      for (const pattern of COLLECTION_PATTERNS) {
        for (const m of text.matchAll(pattern)) if (!collections.has(m[2]!)) collections.set(m[2]!, 'bundle');
      }
    }
  }

  for (const config of configs) {
    if (config.projectId) projectIds.add(config.projectId);
    if (config.databaseURL && isDatabaseUrl(config.databaseURL)) databaseUrls.add(config.databaseURL);
    if (config.storageBucket) buckets.add(config.storageBucket);
  }
  // Projects created since 2020 name their default database <project>-default-rtdb; older ones <project>.firebaseio.com.
  if (databaseUrls.size === 0) for (const id of projectIds) databaseUrls.add(`https://${id}-default-rtdb.firebaseio.com`);
  if (projectIds.size > 0) for (const name of COLLECTION_WORDLIST) if (!collections.has(name)) collections.set(name, 'wordlist');
  const rank: Record<NameOrigin, number> = { traffic: 0, bundle: 1, wordlist: 2 };
  return {
    configs,
    databaseUrls: [...databaseUrls],
    projectIds: [...projectIds],
    buckets: [...buckets],
    collections: [...collections.entries()].map(([name, origin]) => ({ name, origin })).sort((a, b) => rank[a.origin] - rank[b.origin]),
  };
}

const memo = new WeakMap<object, { site: SiteBeforeProbes; info: FirebaseInfo }>();

/** Firebase facts of a site, computed once per site. */
export function analyzeFirebase(site: SiteBeforeProbes): FirebaseInfo {
  const known = memo.get(site.pages);
  if (known && known.site.assets === site.assets && known.site.rendering === site.rendering) return known.info;
  const info = extractFirebase(collectTexts(site));
  memo.set(site.pages, { site, info });
  return info;
}

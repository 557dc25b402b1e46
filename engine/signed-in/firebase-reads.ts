// The Firebase reads a signed-in scan repeats as each test account: the Realtime Database collections and Firestore
// collections the anonymous Firebase checks know of, a few records each, with the account's Firebase ID token
// (retrieval signs the account in with the config's web API key and adds the token; this side never sees it). Which
// records belong to someone else is decided as for Supabase rows (compare.ts): a record keyed by, or holding, the
// other account's uid. Rules `auth != null` let any signed-in user read them all; `auth.uid == $uid` lets her read
// only her own. Pure.
import { analyzeFirebase } from '../analysis/firebase';
import { okJson } from '../analysis/probe-answers';
import type { Exchange, ProbeRequest, Site, SiteBeforeProbes } from '../types';

export const FIREBASE_SIGNED_IN_ID = 'firebase-cross-user-read';
const MAX_DATABASES = 2;
/** Collections read per database and per Firestore project, the ones the site names first. */
const MAX_COLLECTIONS = 6;
/** A few records: enough to see whose they are. */
const RECORD_LIMIT = 5;

export interface FirebaseRead {
  kind: 'database' | 'firestore';
  /** The database root or the Firestore project id. */
  where: string;
  collection: string;
  /** One probe per test account, in account order. */
  probes: ProbeRequest[];
}

type Row = Record<string, unknown>;

const isRecord = (value: unknown): value is Row => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether the anonymous Realtime Database check already read this root (reported there, not twice). */
const rootReadAnonymously = (site: Site, root: string): boolean => {
  const data = okJson(site.probes.get(`firebase-rtdb-readable:${new URL(root).host}`));
  return data !== undefined && data !== null;
};

/** Whether the anonymous Firestore check already read a document of this collection. */
const collectionReadAnonymously = (site: Site, projectId: string, name: string): boolean => {
  const data = okJson(site.probes.get(`firebase-firestore-readable:${projectId}:${name}`));
  return isRecord(data) && Array.isArray(data.documents) && data.documents.length > 0;
};

/** The reads as each account: collections of each database and of the Firestore project. */
export function plannedFirebaseReads(site: SiteBeforeProbes): FirebaseRead[] {
  const accounts = site.accounts ?? [];
  const info = analyzeFirebase(site);
  const apiKey = info.configs.find((config) => config.apiKey)?.apiKey;
  if (accounts.length === 0 || !apiKey) return [];
  const names = info.collections.slice(0, MAX_COLLECTIONS).map((c) => c.name);
  const reads: FirebaseRead[] = [];
  for (const root of info.databaseUrls.slice(0, MAX_DATABASES)) {
    for (const collection of names) {
      // orderBy="$key"&limitToFirst=N: a few children, however large the collection.
      const url = `${root}/${encodeURIComponent(collection)}.json?orderBy=%22%24key%22&limitToFirst=${RECORD_LIMIT}`;
      const probes = accounts.map((_, as) => ({
        key: `${FIREBASE_SIGNED_IN_ID}:rtdb:${new URL(root).host}:${collection}:${as}`,
        method: 'GET' as const,
        url,
        as,
        firebase: { apiKey, tokenIn: 'auth-param' as const },
      }));
      reads.push({ kind: 'database', where: root, collection, probes });
    }
  }
  const projectId = info.projectIds[0];
  if (projectId) {
    for (const collection of names) {
      const url = `https://firestore.googleapis.com/v1/projects/${projectId}/databases/(default)/documents/${encodeURIComponent(collection)}?pageSize=${RECORD_LIMIT}`;
      const probes = accounts.map((_, as) => ({
        key: `${FIREBASE_SIGNED_IN_ID}:firestore:${projectId}:${collection}:${as}`,
        method: 'GET' as const,
        url,
        as,
        firebase: { apiKey, tokenIn: 'bearer' as const },
      }));
      reads.push({ kind: 'firestore', where: projectId, collection, probes });
    }
  }
  return reads;
}

/** A Firestore REST typed value as a plain one ({ stringValue } → the string); maps and arrays are not looked into. */
function plainValue(value: unknown): unknown {
  if (!isRecord(value)) return undefined;
  for (const kind of ['stringValue', 'integerValue', 'doubleValue', 'timestampValue', 'booleanValue', 'referenceValue'] as const) {
    if (kind in value) return value[kind];
  }
  return undefined;
}

/** The records an account read: each with its key (RTDB) or document id (Firestore) as `id`. */
export function recordsOf(read: FirebaseRead, answer: Exchange | undefined): Row[] {
  const data = okJson(answer);
  if (!isRecord(data)) return [];
  if (read.kind === 'database') {
    return Object.entries(data)
      .slice(0, RECORD_LIMIT)
      .map(([id, value]) => (isRecord(value) ? { id, ...Object.fromEntries(Object.entries(value).slice(0, 200)) } : { id, value }));
  }
  const documents = Array.isArray(data.documents) ? (data.documents as unknown[]).filter(isRecord).slice(0, RECORD_LIMIT) : [];
  return documents.map((doc) => {
    const id = typeof doc.name === 'string' ? doc.name.slice(doc.name.lastIndexOf('/') + 1) : '';
    const fields = isRecord(doc.fields) ? Object.entries(doc.fields).slice(0, 200) : [];
    return { id, ...Object.fromEntries(fields.map(([name, value]) => [name, plainValue(value)])) };
  });
}

/** Whether the anonymous checks already read what this read reads. */
export function firebaseReadAnonymously(site: Site, read: FirebaseRead): boolean {
  return read.kind === 'database' ? rootReadAnonymously(site, read.where) : collectionReadAnonymously(site, read.where, read.collection);
}

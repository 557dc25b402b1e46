// The registry: every check the engine runs, in report order. A check file not listed here fails registry.test.ts.
import type { CheckDefinition } from '../types';

// transport, headers, cookies, cors
import { httpsRedirect } from './https-redirect';
import { hsts } from './hsts';
import { tlsCertificate } from './tls-certificate';
import { mixedContent } from './mixed-content';
import { cspMissing } from './csp-missing';
import { cspWeak } from './csp-weak';
import { clickjacking } from './clickjacking';
import { xContentTypeOptions } from './x-content-type-options';
import { referrerPolicy } from './referrer-policy';
import { permissionsPolicy } from './permissions-policy';
import { crossOriginIsolation } from './cross-origin-isolation';
import { subresourceIntegrity } from './subresource-integrity';
import { cookieSecure } from './cookie-secure';
import { cookieHttpOnly } from './cookie-httponly';
import { cookieSameSite } from './cookie-samesite';
import { cookieLooseDomain } from './cookie-loose-domain';
import { corsReflectedOrigin } from './cors-reflected-origin';
import { corsWildcardCredentials } from './cors-wildcard-credentials';
import { corsNullOrigin } from './cors-null-origin';
// (end transport, headers, cookies, cors)

// disclosure, exposed-files, libraries, forms, active
// (end disclosure, exposed-files, libraries, forms, active)

// secrets, supabase, firebase
import { firebaseFirestoreReadable } from './firebase-firestore-readable';
import { firebaseRtdbReadable } from './firebase-rtdb-readable';
import { firebaseStorageListable } from './firebase-storage-listable';
import { publicKeyInClient } from './public-key-in-client';
import { secretInClient } from './secret-in-client';
import { supabaseBucketListable } from './supabase-bucket-listable';
import { supabaseRpcExposed } from './supabase-rpc-exposed';
import { supabaseServiceKey } from './supabase-service-key';
import { supabaseTableReadable } from './supabase-table-readable';
// (end secrets, supabase, firebase)

export const CHECKS: readonly CheckDefinition[] = [
  // transport, headers, cookies, cors (list)
  httpsRedirect,
  hsts,
  tlsCertificate,
  mixedContent,
  cspMissing,
  cspWeak,
  clickjacking,
  xContentTypeOptions,
  referrerPolicy,
  permissionsPolicy,
  crossOriginIsolation,
  subresourceIntegrity,
  cookieSecure,
  cookieHttpOnly,
  cookieSameSite,
  cookieLooseDomain,
  corsReflectedOrigin,
  corsWildcardCredentials,
  corsNullOrigin,
  // disclosure, exposed-files, libraries, forms, active (list)
  // secrets, supabase, firebase (list)
  secretInClient,
  publicKeyInClient,
  supabaseServiceKey,
  supabaseTableReadable,
  supabaseBucketListable,
  supabaseRpcExposed,
  firebaseRtdbReadable,
  firebaseFirestoreReadable,
  firebaseStorageListable,
];

export function checkById(id: string): CheckDefinition | undefined {
  return CHECKS.find((check) => check.id === id);
}

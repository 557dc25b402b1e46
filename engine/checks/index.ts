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
import { serverVersionDisclosure } from './server-version-disclosure';
import { errorDisclosure } from './error-disclosure';
import { suspiciousComments } from './suspicious-comments';
import { directoryListing } from './directory-listing';
import { exposedEnvFile } from './exposed-env-file';
import { exposedGit } from './exposed-git';
import { exposedDsStore } from './exposed-ds-store';
import { exposedBackup } from './exposed-backup';
import { exposedSourceMap } from './exposed-source-map';
import { exposedConfigJson } from './exposed-config-json';
import { exposedAiToolFiles } from './exposed-ai-tool-files';
import { exposedDebugEndpoint } from './exposed-debug-endpoint';
import { vulnerableJsLibrary } from './vulnerable-js-library';
import { maliciousScriptHost } from './malicious-script-host';
import { passwordOverHttp } from './password-over-http';
import { formPostsToHttp } from './form-posts-to-http';
import { loginFormNoCsrf } from './login-form-no-csrf';
import { reflectedXss } from './reflected-xss';
import { openRedirect } from './open-redirect';
// (end disclosure, exposed-files, libraries, forms, active)

// secrets, supabase, firebase
import { firebaseFirestoreReadable } from './firebase-firestore-readable';
import { firebaseRtdbReadable } from './firebase-rtdb-readable';
import { firebaseStorageListable } from './firebase-storage-listable';
import { publicKeyInClient } from './public-key-in-client';
import { secretInClient } from './secret-in-client';
import { automationWebhookInClient } from './automation-webhook-in-client';
import { supabaseBucketListable } from './supabase-bucket-listable';
import { supabaseRpcExposed } from './supabase-rpc-exposed';
import { supabaseServiceKey } from './supabase-service-key';
import { supabaseTableReadable } from './supabase-table-readable';
import { supabaseCrossUserRead } from './supabase-cross-user-read';
import { firebaseCrossUserRead } from './firebase-cross-user-read';
import { signedInCrossUserPage } from './signed-in-cross-user-page';
import { supabaseSignupRead } from './supabase-signup-read';
import { apiCrossUserRead } from './api-cross-user-read';
import { apiAdminPlainUser } from './api-admin-plain-user';
// (end secrets, supabase, firebase)

// tokens
import { jwtAlgNone } from './jwt-alg-none';
import { jwtNoExpiry } from './jwt-no-expiry';
import { jwtWeakSecret } from './jwt-weak-secret';
// (end tokens)
// api
import { apiUnauthenticatedData } from './api-unauthenticated-data';
import { apiDocsExposed } from './api-docs-exposed';
import { adminPageUnauthenticated } from './admin-page-unauthenticated';
import { graphqlIntrospection } from './graphql-introspection';
// (end api)
// frameworks
import { frameworkServerDataLeak } from './framework-server-data-leak';
import { frameworkVulnerableVersion } from './framework-vulnerable-version';
// (end frameworks)

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
  serverVersionDisclosure,
  errorDisclosure,
  suspiciousComments,
  directoryListing,
  exposedEnvFile,
  exposedGit,
  exposedDsStore,
  exposedBackup,
  exposedSourceMap,
  exposedConfigJson,
  exposedAiToolFiles,
  exposedDebugEndpoint,
  vulnerableJsLibrary,
  maliciousScriptHost,
  passwordOverHttp,
  formPostsToHttp,
  loginFormNoCsrf,
  reflectedXss,
  openRedirect,
  // secrets, supabase, firebase (list)
  secretInClient,
  automationWebhookInClient,
  publicKeyInClient,
  supabaseServiceKey,
  supabaseTableReadable,
  supabaseBucketListable,
  supabaseRpcExposed,
  supabaseCrossUserRead,
  firebaseCrossUserRead,
  signedInCrossUserPage,
  supabaseSignupRead,
  apiCrossUserRead,
  apiAdminPlainUser,
  firebaseRtdbReadable,
  firebaseFirestoreReadable,
  firebaseStorageListable,
  // tokens (list)
  jwtWeakSecret,
  jwtAlgNone,
  jwtNoExpiry,
  // api (list)
  apiUnauthenticatedData,
  apiDocsExposed,
  adminPageUnauthenticated,
  graphqlIntrospection,
  // frameworks (list)
  frameworkServerDataLeak,
  frameworkVulnerableVersion,
];

export function checkById(id: string): CheckDefinition | undefined {
  return CHECKS.find((check) => check.id === id);
}

import { adminApiFindings } from '../signed-in/api-findings';
import { apiFollowUps, sessionProbes } from '../signed-in/api-reads';
import { defineCheck } from '../types';

// Signed-in scans only: the admin routes among the reads api-cross-user-read plans (same probes, same keys, sent
// once), judged here. Admin-only means what the site's own code says: an admin path, or a call made behind a role
// guard. An account whose own user or profile holds an admin role is not taken as a plain user.
export const apiAdminPlainUser = defineCheck({
  id: 'api-admin-plain-user',
  family: 'api',
  title: 'Admin API answers a signed-in user who is not an admin',
  severity: 'high',
  confidence: 'medium',
  cwe: 285,
  owasp: 'A01',
  description:
    "Signed-in scans: requests, with GET as each test account, the API routes the site's code keeps for admins (`/api/admin/*`, calls behind `role === 'admin'`, `isAdmin` or an `<AdminRoute>` guard) and reports those that answer a plain signed-in user with data while refusing anonymous visitors: the route checks that a token exists, not the caller's role (OWASP API5:2023, broken function-level authorization). High when the answer lists users or their data.",
  remediation:
    "Check the caller's role on the server in every admin route (a middleware such as `requireRole('admin')` reading the role from the database or the token's app_metadata, never from the request), and answer 403 otherwise. A route guard in the front end only hides the page; the API behind it must refuse on its own.",
  references: ['https://owasp.org/API-Security/editions/2023/en/0xa5-broken-function-level-authorization/', 'https://cwe.mitre.org/data/definitions/285.html'],
  probes: (site) => sessionProbes(site),
  followUpProbes: (site) => apiFollowUps(site),
  appliesTo(site) {
    return (site.accounts ?? []).some((account) => account.signedIn);
  },
  run(site) {
    return adminApiFindings(site);
  },
});

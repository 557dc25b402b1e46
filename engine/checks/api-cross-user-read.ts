import { crossUserApiFindings } from '../signed-in/api-findings';
import { apiFollowUps, sessionProbes } from '../signed-in/api-reads';
import { defineCheck } from '../types';

// Signed-in scans only. The first round signs each test account in (its Supabase user read, as the site's front end
// does); once signed in, the site's own API is read as each account, and the record ids one account's listings showed
// are fetched as the other in the round after. Retrieval adds each account's credential on the main thread; this
// check sees the answers, never a password or token, and compares whose records each account got.
export const apiCrossUserRead = defineCheck({
  id: 'api-cross-user-read',
  family: 'api',
  title: "Any signed-in user can read other users' records through the site's API",
  severity: 'high',
  confidence: 'high',
  cwe: 639,
  owasp: 'A01',
  description:
    "Signed-in scans: reads the REST endpoints and GraphQL queries the site's front end uses as each test account (GET and read-only queries only), then asks for records one account listed as the other account, by the ids it saw (a few, never guessed). Reports a record of one user fetched by id as another (OWASP API1:2023, broken object-level authorization) and listings that hand a signed-in user other users' records. A user who gets only her own records is not a finding; data readable anonymously is reported by api-unauthenticated-data.",
  remediation:
    "Check ownership in every route that reads a user's data, not only that a session exists: scope the query to the session's user (`select * from orders where id = $1 and user_id = $session.user`, 404 when nothing matches) and list only the caller's records (`where user_id = $session.user`). With Supabase, read with the user's JWT under row level security (`using (auth.uid() = user_id)`) rather than a service-role client, or add `.eq('user_id', user.id)` after `supabase.auth.getUser()`. In GraphQL resolvers, filter by the context's user.",
  references: [
    'https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/',
    'https://cheatsheetseries.owasp.org/cheatsheets/Authorization_Cheat_Sheet.html',
    'https://cwe.mitre.org/data/definitions/639.html',
  ],
  probes: (site) => sessionProbes(site),
  followUpProbes: (site) => apiFollowUps(site),
  appliesTo(site) {
    return (site.accounts ?? []).some((account) => account.signedIn);
  },
  run(site) {
    return crossUserApiFindings(site);
  },
});

import { functionReads, plannedReads, SIGNED_IN_ID } from '../signed-in/reads';
import { signedInFindings } from '../signed-in/findings';
import { defineCheck } from '../types';

// Signed-in scans only: the reads run as each test account in the probe phase (retrieval adds the account's token on
// the main thread; this check never sees a password or token), and the comparison of whose rows each account got is
// pure, here. Functions need the other account's user id, known once the accounts signed in: a second round.
export const supabaseCrossUserRead = defineCheck({
  id: SIGNED_IN_ID,
  family: 'supabase',
  title: "Any signed-in user can read other users' data",
  severity: 'high',
  confidence: 'high',
  cwe: 639,
  owasp: 'A01',
  description:
    "Signed-in scans: signs in to the site's Supabase project as each test account and repeats the anonymous reads (a few rows of each table and view, one page of each bucket, functions that take a user id called with the other account's id) to find rows, files or results that belong to another user (OWASP API1:2023, broken object level authorization). A user who reads only her own rows is not a finding; data readable anonymously is reported by the anonymous checks.",
  remediation:
    'Make every SELECT policy check ownership, not only sign-in: `create policy "Users read their own rows" on public.<table> for select to authenticated using (auth.uid() = user_id);` (on profiles, `auth.uid() = id`), and drop policies `using (true)` or `using (auth.uid() is not null)` on tables that hold users\' data. In functions, compare the user-id argument with auth.uid() (or use auth.uid() instead of the argument). In Storage, limit storage.objects to the user\'s folder: `(storage.foldername(name))[1] = auth.uid()::text`.',
  references: [
    'https://supabase.com/docs/guides/database/postgres/row-level-security',
    'https://supabase.com/docs/guides/storage/security/access-control',
    'https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/',
    'https://cwe.mitre.org/data/definitions/639.html',
  ],
  probes: (site) => plannedReads(site).flatMap((read) => read.probes),
  followUpProbes: (site) => functionReads(site).flatMap((read) => read.probes),
  appliesTo(site) {
    return (site.accounts ?? []).some((account) => account.signedIn && !account.throwaway);
  },
  run(site) {
    return signedInFindings(site, [...plannedReads(site), ...functionReads(site)]);
  },
});

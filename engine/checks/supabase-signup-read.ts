import { settingsProbes, signUpFindings, signUpFollowUps, signUpProject, SIGN_UP_READ_ID, throwawayAccount } from '../signed-in/throwaway-reads';
import { defineCheck } from '../types';

// Active scans only (`--active`): where a Supabase project lets anyone sign up with no confirmation step, the scan
// creates one throwaway account (on the main thread, the first time a read planned as it goes out) and repeats the
// signed-in reads as that brand-new account. Its settings read comes first; the reads follow once they say sign-up
// is open. The comparison is pure, here: the check never sees the account's password or token.
export const supabaseSignupRead = defineCheck({
  id: SIGN_UP_READ_ID,
  family: 'supabase',
  title: "Anyone can sign up and read other users' data",
  severity: 'high',
  confidence: 'high',
  cwe: 285,
  owasp: 'A01',
  description:
    "Active scans: where the site's Supabase project lets anyone sign up (GoTrue's settings: disable_signup off, email sign-up on, no confirmation step), creates one throwaway account (vibeeval-…@example.com, named in the report so it can be deleted) and reads a few rows of each table and one page of each bucket as it. A brand-new account owns nothing: rows of other users or folders named after them are readable by anyone on the internet after a sign-up (OWASP API1:2023, broken object level authorization).",
  remediation:
    'Make every SELECT policy check ownership, not only sign-in: `create policy "Users read their own rows" on public.<table> for select to authenticated using (auth.uid() = user_id);` (on profiles, `auth.uid() = id`), and drop policies `to authenticated using (true)` on tables that hold users\' data; in Storage, limit storage.objects to the user\'s folder (`(storage.foldername(name))[1] = auth.uid()::text`). Where the app is invite-only, turn sign-up off (Authentication > Sign In / Providers > Allow new users to sign up). Delete the throwaway account the report names (Authentication > Users).',
  references: [
    'https://supabase.com/docs/guides/database/postgres/row-level-security',
    'https://supabase.com/docs/guides/auth/general-configuration',
    'https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/',
    'https://cwe.mitre.org/data/definitions/285.html',
  ],
  probes: (site) => settingsProbes(site),
  followUpProbes: (site) => signUpFollowUps(site),
  // Only where a brand-new account really read: a sign-up that gave no session proves nothing either way.
  appliesTo(site) {
    return throwawayAccount(site)?.account.signedIn === true && signUpProject(site) !== undefined;
  },
  run(site) {
    return signUpFindings(site);
  },
});

import { SEVERITY_RANK } from '../../common/scan';
import { describeSightings, rateExposure } from '../analysis/data-exposure';
import { crossRead } from '../signed-in/compare';
import { firebaseReadAnonymously, FIREBASE_SIGNED_IN_ID, plannedFirebaseReads, recordsOf, type FirebaseRead } from '../signed-in/firebase-reads';
import { maskId } from '../signed-in/findings';
import { defineCheck, type FindingDraft, type Severity, type Site, type SiteAccount } from '../types';

const who = (account: SiteAccount | undefined): string => (account ? `${account.login}${account.userId ? ` (uid ${maskId(account.userId)})` : ''}` : 'a test account');
const atLeastMedium = (severity: Severity): Severity => (SEVERITY_RANK[severity] >= SEVERITY_RANK.medium ? severity : 'medium');

/** The request as sent: the ID token stands where the account's token went, never the token itself. */
function sentRequest(read: FirebaseRead, reader: number, account: SiteAccount | undefined): string {
  const probe = read.probes[reader]!;
  const lines =
    read.kind === 'database' ? [`GET ${probe.url}&auth=<Firebase ID token of the account>`] : [`GET ${probe.url}`, 'Authorization: Bearer <Firebase ID token of the account>'];
  return [`Sent as ${who(account)}`, ...lines].join('\n');
}

const FIX = {
  database: (collection: string) => `"${collection}": { "$uid": { ".read": "auth != null && auth.uid === $uid" } } (and no ".read" on "${collection}" itself)`,
  firestore: (collection: string) =>
    `match /${collection}/{docId} { allow read: if request.auth != null && request.auth.uid == resource.data.userId; } (or match /${collection}/{userId} with request.auth.uid == userId)`,
};

function draft(site: Site, read: FirebaseRead): FindingDraft | undefined {
  const accounts = site.accounts ?? [];
  const perAccount = read.probes.map((probe, index) => ({ index, rows: recordsOf(read, site.probes.get(probe.key)) }));
  const cross = crossRead(accounts, perAccount, read.collection);
  if (!cross) return undefined;
  const reader = accounts[cross.reader];
  const owner = cross.owner !== undefined ? accounts[cross.owner] : undefined;
  const columns = [...new Set(cross.rows.flatMap((row) => Object.keys(row)))].slice(0, 200);
  const rating = rateExposure({ columns, row: cross.rows[0], subject: read.collection, what: "another user's record" });
  const seen = describeSightings(rating);
  const where = read.kind === 'database' ? `the Realtime Database at ${read.where}` : `Firestore in project ${read.where}`;
  const value = cross.rows[0]?.[cross.column];
  const ownerValue = typeof value === 'string' || typeof value === 'number' ? String(value) : (owner?.userId ?? '');
  return {
    url: read.kind === 'database' ? `${read.where}/${read.collection}` : read.probes[0]!.url.split('?', 1)[0]!,
    title: `Any signed-in user can read other users' "${read.collection}" in ${read.kind === 'database' ? 'the Realtime Database' : 'Firestore'}`,
    severity: atLeastMedium(rating.severity),
    detail:
      `Signed in as ${who(reader)} with Firebase Auth, the scan read ${cross.read} record${cross.read === 1 ? '' : 's'} of "${read.collection}" in ${where}; ${cross.rows.length} belong${cross.rows.length === 1 ? 's' : ''} to ${owner ? `the other test account, ${who(owner)}` : 'another user'}. ` +
      `The security rules check that a user is signed in (\`auth != null\`), not that the record is hers. ${rating.reason}`,
    evidence: {
      request: sentRequest(read, cross.reader, reader),
      response: [
        `HTTP 200, ${cross.read} record${cross.read === 1 ? '' : 's'} (values not kept)`,
        `Records of another user: ${cross.rows.length} (${cross.column} = ${maskId(ownerValue)}${owner ? `, the uid of ${owner.login}` : ''}; the reader's uid is ${maskId(reader?.userId ?? '')})`,
        `Fields: ${columns.slice(0, 30).join(', ')}`,
        seen.length > 0 ? `Seen in another user's record (masked): ${seen.join('; ')}` : undefined,
        `Fix: ${FIX[read.kind](read.collection)}`,
      ]
        .filter(Boolean)
        .join('\n'),
      match: `${cross.column} = ${maskId(ownerValue)}`,
    },
    key: `${read.kind}/${read.where}/${read.collection}`,
  };
}

// Signed-in scans only: the reads go out as each test account in the probe phase (retrieval signs the account in
// with Firebase Auth and adds its ID token on the main thread; this check never sees a password or token).
export const firebaseCrossUserRead = defineCheck({
  id: FIREBASE_SIGNED_IN_ID,
  family: 'firebase',
  title: "Any signed-in user can read other users' Firebase data",
  severity: 'high',
  confidence: 'high',
  cwe: 639,
  owasp: 'A01',
  description:
    "Signed-in scans: signs in with Firebase Auth (email and password, the site's web API key) as each test account and reads a few records of each Realtime Database and Firestore collection the site uses, to find records that belong to another user (OWASP API1:2023, broken object level authorization). A user who reads only her own records is not a finding; data readable anonymously is reported by the anonymous checks.",
  remediation:
    'Make every read rule check ownership, not only sign-in. Realtime Database: "users": { "$uid": { ".read": "auth != null && auth.uid === $uid" } } instead of ".read": "auth != null". Firestore: allow read: if request.auth != null && request.auth.uid == resource.data.userId (or key each user\'s document by her uid and compare with request.auth.uid), instead of allow read: if request.auth != null. Test the rules in the Rules Playground as two different users.',
  references: [
    'https://firebase.google.com/docs/rules/insecure-rules#content-owner_only_access',
    'https://firebase.google.com/docs/database/security/rules-conditions#authentication',
    'https://firebase.google.com/docs/firestore/security/rules-conditions#authentication',
    'https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/',
    'https://cwe.mitre.org/data/definitions/639.html',
  ],
  probes: (site) => plannedFirebaseReads(site).flatMap((read) => read.probes),
  appliesTo(site) {
    return (site.accounts ?? []).some((account) => account.signedIn);
  },
  run(site) {
    return plannedFirebaseReads(site).flatMap((read) => {
      if (firebaseReadAnonymously(site, read)) return [];
      const found = draft(site, read);
      return found ? [found] : [];
    });
  },
});

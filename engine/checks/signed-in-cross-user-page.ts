import { CROSS_USER_PAGE_ID, recordReads, sameRecord, startReads, type RecordRead } from '../signed-in/cross-user-pages';
import { defineCheck, type FindingDraft, type Site } from '../types';

function draft(site: Site, read: RecordRead): FindingDraft | undefined {
  const same = sameRecord(read, site);
  // A JSON record is the site's API, whose reads as each account are api-cross-user-read's: one fact, one finding.
  if (!same || same.reader.contentType.includes('json')) return undefined;
  const accounts = site.accounts ?? [];
  const reader = accounts[read.reader]!.login;
  const owner = accounts[read.owner]!.login;
  const path = new URL(read.url).pathname;
  return {
    url: read.url,
    title: `Any signed-in user can open other users' records at ${path.replace(/\/[^/]*$/, '/…')}`,
    // A record that names its owner is personal data of another user; any other record is at least private to her.
    severity: same.showsOwner ? 'high' : 'medium',
    detail:
      `${path} is linked only from what ${owner} sees once signed in (her own record). Signed in as ${reader}, the scan asked for it and got the same page ${owner} gets` +
      `${same.showsOwner ? `, naming ${owner}` : ''}. The route checks that a user is signed in, not that the record is hers (broken object level authorization).`,
    evidence: {
      request: [`Sent as ${reader} (the session of the site's own sign-in; cookie and token masked)`, `GET ${read.url}`].join('\n'),
      response: [
        `HTTP ${same.reader.status}, ${same.reader.bodyBytes} bytes (content not kept)`,
        `The same answer as ${owner}'s own (each account's login set aside); the id was learned from ${owner}'s answers, not guessed`,
        `Fix: load the record with the signed-in user as a condition (e.g. WHERE id = $1 AND user_id = $session_user) and answer 404 otherwise`,
      ].join('\n'),
      match: `${reader} read ${owner}'s ${path}`,
    },
    key: `${path}`,
  };
}

// Signed-in scans only, with two accounts: the requests go out as each account through the session of the site's
// own sign-in (retrieval adds its cookie or token on the main thread; this check never sees them).
export const signedInCrossUserPage = defineCheck({
  id: CROSS_USER_PAGE_ID,
  family: 'api',
  title: "Any signed-in user can open other users' records",
  severity: 'high',
  confidence: 'high',
  cwe: 639,
  owasp: 'A01',
  description:
    "Signed-in scans with two accounts: reads the pages behind the site's login and its JSON routes as each account, takes the record links and ids each account's own answers name, and asks for the other account's records as the first. The same page as the owner's means the route does not check ownership (OWASP API1:2023, broken object level authorization); JSON records are reported by api-cross-user-read. Ids are never guessed.",
  remediation:
    "Look records up with the signed-in user as a condition (WHERE id = $1 AND user_id = <session user>, or compare the record's owner with the session user before answering) and answer 404 for anyone else's; a check that the user is signed in is not enough.",
  references: [
    'https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/',
    'https://cwe.mitre.org/data/definitions/639.html',
    'https://cheatsheetseries.owasp.org/cheatsheets/Authorization_Cheat_Sheet.html',
  ],
  probes: (site) => startReads(site).flatMap((start) => start.probes),
  followUpProbes: (site) => recordReads(site).flatMap((read) => read.probes),
  appliesTo(site) {
    return (site.accounts ?? []).filter((account) => account.signedIn).length >= 2;
  },
  run(site) {
    return recordReads(site).flatMap((read) => {
      const found = draft(site, read);
      return found ? [found] : [];
    });
  },
});

/** What a finding's row in a list shows before it is opened: its title and address, and what tells it apart. */
export interface FindingRowSource {
  fingerprint: string;
  title: string;
  url: string;
  detail?: string;
}

/**
 * The line that tells apart findings that would otherwise read the same in a list: one check can report several
 * things on one page (two scripts without integrity, four weaknesses of one policy, a server header and an
 * X-Powered-By), each a finding of its own with the same title and address. Listed as title and address alone they
 * look like one finding listed twice; each of them gets its own detail (what was found there) as a second line.
 * Answers that line by fingerprint, for those findings only.
 */
export function distinguishingLines(findings: readonly FindingRowSource[]): Map<string, string> {
  const place = (finding: FindingRowSource) => `${finding.title}\n${finding.url}`;
  const shared = new Map<string, number>();
  for (const finding of findings) shared.set(place(finding), (shared.get(place(finding)) ?? 0) + 1);
  const lines = new Map<string, string>();
  for (const finding of findings) {
    if ((shared.get(place(finding)) ?? 0) > 1 && finding.detail) lines.set(finding.fingerprint, finding.detail);
  }
  return lines;
}

/** How a row reads in a list (title, address and the distinguishing line, if any): two rows never read the same. */
export function rowText(finding: FindingRowSource, lines: ReadonlyMap<string, string>): string {
  return [finding.title, finding.url, lines.get(finding.fingerprint) ?? ''].join('\n');
}

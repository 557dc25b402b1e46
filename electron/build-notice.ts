import type { ContinuousBuild } from '../common/continuous';
import { plural } from '../common/plural';
import type { DesktopNotice } from './notice';
import { siteLabel } from './notice-context';

/** How many new findings a build notice names; the rest are counted. */
const NAMED = 3;

/** The continuous testing page of a build's project, which a click on its notice opens. */
export const continuousTestingPath = (projectId: string) => `/dashboard/continuous-testing?project=${encodeURIComponent(projectId)}`;

/** 'Broken login (high), Exposed .env (critical) and 3 more.' */
function namedFindings(build: ContinuousBuild): string {
  const changes = build.changes!;
  const named = changes.new_findings.slice(0, NAMED).map((finding) => `${finding.title} (${finding.severity})`);
  const more = changes.new_count - named.length;
  return named.length === 0 ? '' : `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}.`;
}

/** '1 new critical finding and 2 new high findings', from the listed findings at those severities. */
function severeCount(build: ContinuousBuild, severities: readonly string[]): string {
  const parts = severities
    .map((severity) => ({ severity, count: build.changes!.new_findings.filter((finding) => finding.severity === severity).length }))
    .filter(({ count }) => count > 0)
    .map(({ severity, count }) => plural(count, `new ${severity} finding`));
  return parts.join(' and ');
}

/**
 * The notification of a judged continuous build: error (new high or critical findings, or the site broke), warning
 * (new medium ones) or passed; none while the build waits for its re-scan.
 */
export function buildNotice(build: ContinuousBuild): DesktopNotice | null {
  if (build.status === 'other' || !build.finished_at || !build.changes) return null;
  const site = siteLabel(build.url);
  const base = { key: `build:${build.id}:${build.status}`, projectId: build.project_id, path: continuousTestingPath(build.project_id) };
  const { changes } = build;
  if (build.status === 'error' && changes.error) return { ...base, title: `Build error on ${site}: the site could not be scanned`, body: changes.error };
  if (build.status === 'error') return { ...base, title: `Build error on ${site}: ${severeCount(build, ['critical', 'high']) || 'new high findings'}`, body: namedFindings(build) };
  if (build.status === 'warning') return { ...base, title: `Build warning on ${site}: ${severeCount(build, ['medium']) || 'new medium findings'}`, body: namedFindings(build) };
  const grade = changes.grade ? `Grade ${changes.grade}. ` : '';
  return { ...base, title: `Build passed on ${site}`, body: `${grade}Nothing new at medium or above.` };
}

import { and, desc, eq, sql } from 'drizzle-orm';
import { MONITORING_EVENTS_PER_MONTH, type MonitoringOverview, type MonitorSchedule } from '../../common/continuous';
import type { Db } from '../db';
import { continuousBuilds, continuousUsage, projects, scans } from '../db/schema';
import { isUuid } from '../projects/service';
// When a schedule fires is defined once, with the tick that fires it.
import { nextScheduledRun } from './schedule';
import { toBuild } from './service';
import { HttpError } from '../http-errors';

type ProjectRow = typeof projects.$inferSelect;

/** The first day of the current calendar month in UTC, as PostgreSQL computes it (one clock for every server). */
const currentMonth = sql`(date_trunc('month', now() at time zone 'UTC'))::date`;

const scheduleOf = (row: ProjectRow): MonitorSchedule => ({
  frequency: row.monitorFrequency,
  hour: row.monitorHour,
  weekday: row.monitorWeekday,
  timezone: row.monitorTimezone,
});

/** The continuous testing screen's Overview of one project, its schedule and its workspace's monthly usage. */
export class MonitoringService {
  constructor(private readonly db: Db) {}

  private async project(workspaceId: string, projectId: string): Promise<ProjectRow> {
    if (!isUuid(projectId)) throw new HttpError(404, 'Project not found');
    const [row] = await this.db
      .select()
      .from(projects)
      .where(and(eq(projects.id, projectId), eq(projects.workspaceId, workspaceId)));
    if (!row) throw new HttpError(404, 'Project not found');
    return row;
  }

  async overview(workspaceId: string, projectId: string, now = new Date()): Promise<MonitoringOverview> {
    const project = await this.project(workspaceId, projectId);
    const [[build], [scan], [usage]] = await Promise.all([
      this.db.select().from(continuousBuilds).where(eq(continuousBuilds.projectId, project.id)).orderBy(desc(continuousBuilds.createdAt), desc(continuousBuilds.id)).limit(1),
      this.db
        .select({ id: scans.id, grade: scans.grade, score: scans.score, finishedAt: scans.finishedAt })
        .from(scans)
        .where(and(eq(scans.projectId, project.id), eq(scans.state, 'completed')))
        .orderBy(desc(scans.finishedAt))
        .limit(1),
      this.db
        .select({ reports: continuousUsage.reports, month: sql<string>`to_char(${currentMonth}, 'YYYY-MM')` })
        .from(continuousUsage)
        .where(and(eq(continuousUsage.workspaceId, project.workspaceId), eq(continuousUsage.month, currentMonth))),
    ]);
    const schedule = scheduleOf(project);
    const next = await nextScheduledRun(this.db, schedule, now);
    return {
      project_id: project.id,
      url: project.url,
      site_token: project.siteToken,
      current_build: build ? toBuild(build) : null,
      last_scan: scan ? { id: scan.id, grade: scan.grade, score: scan.score, finished_at: scan.finishedAt?.toISOString() ?? null } : null,
      schedule,
      next_run_at: next?.toISOString() ?? null,
      usage: { used: usage?.reports ?? 0, limit: MONITORING_EVENTS_PER_MONTH, month: usage?.month ?? now.toISOString().slice(0, 7) },
    };
  }

  /** Sets the project's scheduled re-scans; the next tick of the schedule follows the new settings. */
  async setSchedule(workspaceId: string, projectId: string, schedule: MonitorSchedule): Promise<MonitoringOverview> {
    const project = await this.project(workspaceId, projectId);
    await this.db
      .update(projects)
      .set({ monitorFrequency: schedule.frequency, monitorHour: schedule.hour, monitorWeekday: schedule.weekday, monitorTimezone: schedule.timezone, updatedAt: new Date() })
      .where(eq(projects.id, project.id));
    return this.overview(workspaceId, projectId);
  }

  /**
   * Counts one monitoring report (changed or not) for the usage meter of the project's workspace; the month's row
   * names the member who made the project it first counted for.
   */
  async countReport(project: Pick<ProjectRow, 'workspaceId' | 'userId'>): Promise<void> {
    await this.db
      .insert(continuousUsage)
      .values({ userId: project.userId, workspaceId: project.workspaceId, month: currentMonth, reports: 1 })
      .onConflictDoUpdate({ target: [continuousUsage.workspaceId, continuousUsage.month], set: { reports: sql`${continuousUsage.reports} + 1` } });
  }
}

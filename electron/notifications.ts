import { LRUCache } from 'lru-cache';
import { liveMessageSchema, type LiveMessage } from '../common/projects';
import { buildNotice } from './build-notice';
import { plural } from '../common/plural';
import { changeHeadline } from '../common/scan-history';
import type { DesktopNotice, NoticeContext } from './notice';

/** The notification for one live message, or null when the message is not worth one (progress, queued, ...). */
export function noticeFor(message: LiveMessage, context: NoticeContext): DesktopNotice | null {
  if (message.type === 'scan.state') {
    const { scan } = message;
    const site = context.siteOf(message.project_id) ?? 'your site';
    const key = `scan:${message.scan_id}:${scan.state}`;
    if (scan.state === 'completed') {
      const counts = scan.counts;
      const findings = counts ? `${plural(counts.critical, 'critical issue')}, ${plural(counts.high, 'high issue')}` : 'No findings';
      const grade = scan.grade ? `Grade ${scan.grade}. ` : '';
      // A re-scan leads with what is new since the last scan; a first scan (or changes not known) without it.
      const headline = changeHeadline(context.changesOf?.(message.scan_id) ?? null);
      return { key, title: `Scan finished: ${site}`, body: `${headline ? `${headline}. ` : ''}${grade}${findings}.`, projectId: message.project_id };
    }
    if (scan.state === 'failed') {
      return { key, title: `Scan failed: ${site}`, body: scan.error ?? 'The scan could not finish.', projectId: message.project_id };
    }
    return null;
  }
  if (message.type === 'scenario.run') {
    const { run } = message;
    if (run.status !== 'passed' && run.status !== 'failed') return null;
    const scenario = context.scenarioOf(message.scenario_id);
    if (!scenario) return null; // no project to open: a click would lead nowhere
    const key = `run:${run.id}:${run.status}`;
    if (run.status === 'passed') return { key, title: `Scenario passed: ${scenario.name}`, body: 'Every step passed.', projectId: scenario.projectId };
    const step = run.failed_step === null ? '' : `Step ${run.failed_step + 1} failed. `;
    return { key, title: `Scenario failed: ${scenario.name}`, body: `${step}${run.error ?? ''}`.trim() || 'The run failed.', projectId: scenario.projectId };
  }
  if (message.type === 'continuous.build') return buildNotice(message.build);
  return null;
}

/** A bounded set of recently seen keys, the least recently seen evicted first. */
export class RecentKeys {
  private readonly keys: LRUCache<string, true>;
  constructor(capacity = 500) {
    this.keys = new LRUCache({ max: capacity });
  }

  /** True when the key was new (and is now remembered), false when it was seen recently. */
  add(key: string): boolean {
    // get() refreshes the key: recently seen stays longest.
    if (this.keys.get(key)) return false;
    this.keys.set(key, true);
    return true;
  }

  get size(): number {
    return this.keys.size;
  }
}

/** The part of Electron's Notification the notifier uses. */
export type ShowNotification = (notice: { title: string; body: string }, onClick: () => void) => void;

export interface NotifierOptions {
  context: NoticeContext;
  isSignedIn: () => boolean;
  /** The desktop-notification choice in the settings. */
  notificationsEnabled: () => boolean;
  show: ShowNotification;
  /** Brings the main window forward (restore, show, focus). */
  focusWindow: () => void;
  /** Opens the project's page in the main window, or `path` when the notice names another page of it. */
  openProject: (projectId: string, path?: string) => void;
  capacity?: number;
}

/** Turns raw live-stream messages into native notifications: validated, deduplicated, only when wanted. */
export function createNotifier(options: NotifierOptions): { handle(raw: unknown): DesktopNotice | null } {
  const seen = new RecentKeys(options.capacity);
  return {
    handle(raw) {
      const parsed = liveMessageSchema.safeParse(raw);
      if (!parsed.success) return null;
      const notice = noticeFor(parsed.data, options.context);
      if (!notice) return null;
      // Remember the event even when nothing is shown, so turning notifications on does not replay old events.
      if (!seen.add(notice.key)) return null;
      if (!options.isSignedIn() || !options.notificationsEnabled()) return null;
      options.show({ title: notice.title, body: notice.body }, () => {
        options.focusWindow();
        if (notice.path) options.openProject(notice.projectId, notice.path);
        else options.openProject(notice.projectId);
      });
      return notice;
    },
  };
}

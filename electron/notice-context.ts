import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { LiveMessage } from '../common/projects';
import { apiHeaders, type ActiveSession } from './live-session';
import type { NoticeContext } from './notice';

/** How long a project's site or a scenario's name is reused before it is asked again. */
export const CONTEXT_TTL_MS = 60_000;
/** The longest a notification waits for its context; after that it goes out with a generic title. */
export const CONTEXT_WAIT_MS = 2_000;
const MAX_ENTRIES = 200;
const NAME_LENGTH = 80;

// Only the fields the texts and the click need, from GET /project/{id} and GET /scenario/{id}.
const projectFieldsSchema = z.object({ id: z.string(), url: z.string().max(4_096) });
const scenarioFieldsSchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  website: z.string().max(4_096),
  summarized_actions: z.string().nullable(),
});

// GET /project/{id}/scans/diff?to=: only the counts, and whether there was a scan before.
const diffFieldsSchema = z.object({
  from: z.object({ id: z.string() }).nullable(),
  counts: z.object({ new: z.number().int().nonnegative(), fixed: z.number().int().nonnegative() }),
});

type Scenario = { projectId: string; name: string };
/** A scan's changes: null inside when it was the project's first (the cache keeps undefined for 'not known'). */
type Changes = { change: { new: number; fixed: number } | null };
interface Entry<T> {
  value: T | undefined;
  at: number;
  loading?: Promise<void>;
}

/** A project's site as a notification shows it: host and path, without the scheme or a trailing slash. */
export function siteLabel(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname === '/' ? '' : parsed.pathname.replace(/\/$/, '');
    return `${parsed.host}${path}`.slice(0, NAME_LENGTH);
  } catch {
    return url.slice(0, NAME_LENGTH);
  }
}

/** A scenario's name: its summary's first line, or its site. */
export function scenarioLabel(scenario: z.infer<typeof scenarioFieldsSchema>): string {
  const summary = scenario.summarized_actions?.trim().split('\n')[0]?.trim();
  if (!summary) return siteLabel(scenario.website);
  return summary.length > NAME_LENGTH ? `${summary.slice(0, NAME_LENGTH - 1)}…` : summary;
}

export interface NoticeContextOptions {
  origin: string;
  session: { current(): Promise<ActiveSession | null> };
  fetch?: typeof fetch;
  now?: () => number;
  ttlMs?: number;
  waitMs?: number;
}

/** The notice context from the API, cached briefly; `prepare` loads what one message needs, waiting at most ~2 s. */
export function createNoticeContext(options: NoticeContextOptions): NoticeContext & { prepare(message: LiveMessage): Promise<void> } {
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? CONTEXT_TTL_MS;
  // The least recently used entries go first past MAX_ENTRIES; expiry stays ours (a stale value is kept while its
  // refresh fails).
  const projects = new LRUCache<string, Entry<string>>({ max: MAX_ENTRIES });
  const scenarios = new LRUCache<string, Entry<Scenario>>({ max: MAX_ENTRIES });
  const changes = new LRUCache<string, Entry<Changes>>({ max: MAX_ENTRIES });

  const getJson = async (path: string): Promise<unknown> => {
    const session = await options.session.current();
    if (!session) return undefined;
    const response = await (options.fetch ?? fetch)(`${options.origin}${path}`, {
      headers: apiHeaders(session),
      signal: AbortSignal.timeout(10_000),
      redirect: 'error',
    });
    return response.ok ? response.json() : undefined;
  };

  function load<T>(cache: LRUCache<string, Entry<T>>, id: string, fetchValue: () => Promise<T | undefined>): Promise<void> {
    const entry = cache.get(id);
    if (entry?.loading) return entry.loading;
    if (entry && entry.value !== undefined && now() - entry.at < ttl) return Promise.resolve();
    const loading = fetchValue()
      .catch(() => undefined)
      .then((value) => {
        cache.set(id, { value: value ?? entry?.value, at: now() });
      });
    cache.set(id, { value: entry?.value, at: entry?.at ?? 0, loading });
    return loading;
  }

  const loadProject = (id: string) =>
    load(projects, id, async () => {
      const parsed = projectFieldsSchema.safeParse(await getJson(`/project/${encodeURIComponent(id)}`));
      return parsed.success ? siteLabel(parsed.data.url) : undefined;
    });
  const loadChanges = (projectId: string, scanId: string) =>
    load(changes, scanId, async () => {
      const parsed = diffFieldsSchema.safeParse(await getJson(`/project/${encodeURIComponent(projectId)}/scans/diff?to=${encodeURIComponent(scanId)}`));
      if (!parsed.success) return undefined;
      return { change: parsed.data.from ? { new: parsed.data.counts.new, fixed: parsed.data.counts.fixed } : null };
    });
  const loadScenario = (id: string) =>
    load(scenarios, id, async () => {
      const parsed = scenarioFieldsSchema.safeParse(await getJson(`/scenario/${encodeURIComponent(id)}`));
      if (!parsed.success || !parsed.data.project_id) return undefined;
      return { projectId: parsed.data.project_id, name: scenarioLabel(parsed.data) };
    });

  return {
    siteOf: (projectId) => projects.get(projectId)?.value,
    scenarioOf: (scenarioId) => scenarios.get(scenarioId)?.value,
    changesOf: (scanId) => changes.get(scanId)?.value?.change,
    async prepare(message) {
      let loading: Promise<unknown> | null = null;
      if (message.type === 'scan.state' && message.scan.state === 'completed') {
        // A re-scan's notice leads with what is new: the diff against the scan before, beside the site.
        loading = Promise.all([loadProject(message.project_id), loadChanges(message.project_id, message.scan_id)]);
      } else if (message.type === 'scan.state' && message.scan.state === 'failed') {
        loading = loadProject(message.project_id);
      } else if (message.type === 'scenario.run' && (message.run.status === 'passed' || message.run.status === 'failed')) {
        loading = loadScenario(message.scenario_id);
      }
      if (!loading) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.waitMs ?? CONTEXT_WAIT_MS)));
      await Promise.race([loading, waited]);
      clearTimeout(timer);
    },
  };
}

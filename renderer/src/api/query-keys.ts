/** Every query key in the app comes from here, so a mutation can invalidate exactly what it changed. */
export const queryKeys = {
  projects: {
    all: ['projects'] as const,
    list: () => ['projects', 'list'] as const,
    /** The report generator's picker: bigger pages; under list() so the same invalidations reach it. */
    picker: () => ['projects', 'list', 'picker'] as const,
    detail: (id: string) => ['projects', 'detail', id] as const,
    events: (id: string) => ['projects', 'detail', id, 'events'] as const,
    /** GET /project/{id}/scan: the latest scan in full. */
    scan: (id: string) => ['projects', 'detail', id, 'scan'] as const,
    /** GET /project/{id}/decisions: the project's triage decisions. */
    decisions: (id: string) => ['projects', 'detail', id, 'decisions'] as const,
    /** GET /project/{id}/scans: the project's scan history (under detail(), so a scan's state change reaches it). */
    scans: (id: string) => ['projects', 'detail', id, 'scans', 'list'] as const,
    /** GET /project/{id}/rechecks: the project's checks again with their answers, in its History. */
    rechecks: (id: string) => ['projects', 'detail', id, 'rechecks'] as const,
    /** GET /project/{id}/scans/diff: what changed between two scans (null: the server's default). */
    scanDiff: (id: string, from: string | null, to: string | null) => ['projects', 'detail', id, 'scans', 'diff', from, to] as const,
  },
  /**
   * Data that only the live stream writes (never fetched), kept outside the fetched keys so invalidating a
   * project does not try to refetch it.
   */
  live: {
    all: ['live'] as const,
    /** The running scan's progress for a project: { scan_id, progress } from 'scan.progress' messages. */
    scanProgress: (projectId: string) => ['live', 'scan-progress', projectId] as const,
  },
  events: {
    all: ['events'] as const,
    /** GET /events/recent with the Events page's filters (query parameter → value; none by default). */
    recent: (limit: number, filters: Readonly<Record<string, string>> = {}) => ['events', 'recent', limit, filters] as const,
  },
  scenarios: {
    all: ['scenarios'] as const,
    list: () => ['scenarios', 'list'] as const,
    /** GET /scenario/{id}: the scenario with its runs. */
    detail: (id: string) => ['scenarios', 'detail', id] as const,
    /** A run's screenshot (a blob, fetched with the bearer token). */
    screenshot: (path: string) => ['scenarios', 'screenshot', path] as const,
  },
  reports: {
    recent: ['reports', 'recent'] as const,
    /** GET /reports/{id}: a generated report's state (polled, and written by 'report.state' live messages). */
    status: (id: string) => ['reports', 'status', id] as const,
  },
  webhooks: {
    all: ['webhooks'] as const,
    list: () => ['webhooks', 'list'] as const,
    /** GET /webhook/{id}/deliveries: the webhook's recent deliveries with their attempts. */
    deliveries: (id: string) => ['webhooks', 'deliveries', id] as const,
    allDeliveries: ['webhooks', 'deliveries'] as const,
  },
  domains: {
    /** GET /domains: the current workspace's domains and their verification state. */
    list: () => ['domains', 'list'] as const,
  },
  apiKeys: {
    all: ['api-keys'] as const,
    list: () => ['api-keys', 'list'] as const,
    /** GET /api_usage: the API plan and today's requests against its limit. */
    usage: () => ['api-keys', 'usage'] as const,
    /** GET /v1/openapi.json: the public API's OpenAPI document. */
    openapi: () => ['api-keys', 'openapi'] as const,
  },
  /** GET /v2/live-browser/framing?url=...: whether a site may be shown in a frame (web live browser). */
  liveBrowser: { framing: (url: string) => ['live-browser', 'framing', url] as const },
  /** GET /plan_limits: what the account's plan allows (billing changes invalidate it). */
  planLimits: ['plan-limits'] as const,
  /** GET /auth/v1/settings of the auth server: which sign-in providers it offers. */
  authSettings: ['auth-settings'] as const,
  continuous: {
    all: ['continuous'] as const,
    /** GET /project/{id}/monitoring: the Overview tab (current build, last grade, schedule, usage, site token). */
    monitoring: (projectId: string) => ['continuous', 'monitoring', projectId] as const,
    /** GET /continuous_builds?project_id=...: the project's Event History, a page at a time. */
    builds: (projectId: string) => ['continuous', 'builds', projectId] as const,
  },
  billing: {
    subscriptions: ['billing', 'subscriptions'] as const,
    plans: ['billing', 'plans'] as const,
  },
  /** GET /preferences: the account's notification settings. */
  preferences: ['preferences'] as const,
  workspaces: {
    all: ['workspaces'] as const,
    /** GET /workspaces: the caller's workspaces (the switcher). */
    list: () => ['workspaces', 'list'] as const,
    /** GET /workspace/{id}: name, role, plan and seats. */
    detail: (id: string) => ['workspaces', 'detail', id] as const,
    members: (id: string) => ['workspaces', 'detail', id, 'members'] as const,
    invitations: (id: string) => ['workspaces', 'detail', id, 'invitations'] as const,
    /** POST /invitations/preview: what an invitation link would join (keyed by the link's token). */
    preview: (token: string) => ['workspaces', 'preview', token] as const,
  },
  /** The desktop app's own settings (through the bridge, not the server). */
  desktop: { settings: ['desktop', 'settings'] as const },
} as const;

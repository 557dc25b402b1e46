/** Every query key in the app comes from here, so a mutation can invalidate exactly what it changed. */
export const queryKeys = {
  projects: {
    all: ['projects'] as const,
    list: () => ['projects', 'list'] as const,
    detail: (id: string) => ['projects', 'detail', id] as const,
    events: (id: string) => ['projects', 'detail', id, 'events'] as const,
  },
  events: { recent: (limit: number) => ['events', 'recent', limit] as const },
  scenarios: { all: ['scenarios'] as const },
  reports: { recent: ['reports', 'recent'] as const },
  webhooks: { all: ['webhooks'] as const },
  continuousBuilds: { all: ['continuous-builds'] as const },
  billing: {
    subscriptions: ['billing', 'subscriptions'] as const,
    plans: ['billing', 'plans'] as const,
  },
} as const;

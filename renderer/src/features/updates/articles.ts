// The three articles of /updates, in reading order (previous/next follow this order).

export interface Article {
  path: string;
  title: string;
  summary: string;
  /** Publication day, YYYY-MM-DD. */
  date: string;
  readingMinutes: number;
  topic: string;
}

export const ARTICLES: readonly Article[] = [
  {
    path: '/updates/vibe-coding-apps',
    title: 'The security holes AI coding tools leave behind, and how to close them',
    summary:
      'Supabase tables anyone can read, service_role keys in the bundle, a served .env file, missing headers: the mistakes we find most often in apps built with Lovable, Bolt, v0, Cursor and Replit, with the fix for each.',
    date: '2026-11-16',
    readingMinutes: 7,
    topic: 'Security',
  },
  {
    path: '/updates/vibe-friendly-testing',
    title: 'Testing that fits vibe coding',
    summary:
      'Plain-English browser scenarios, a scan on every deploy, CI that fails on high-severity findings and uploads SARIF, and a watch on the live site: a testing routine for apps whose code you did not type.',
    date: '2026-11-18',
    readingMinutes: 5,
    topic: 'Testing',
  },
  {
    path: '/updates/vibe-competitors-comparison',
    title: 'vibeeval and ten other website security tools, compared',
    summary:
      'OWASP ZAP, MDN HTTP Observatory, Nuclei, Burp Suite, Snyk, Lovable Security Scan and four scanners made for vibe-coded apps: what each one checks, how it fits into CI, and where vibeeval falls short.',
    date: '2026-11-20',
    readingMinutes: 5,
    topic: 'Comparison',
  },
];

export function articleAt(path: string): Article {
  const article = ARTICLES.find((candidate) => candidate.path === path);
  if (!article) throw new Error(`no article at ${path}`);
  return article;
}

/** The articles before and after this one in reading order (none before the first, none after the last). */
export function neighbours(path: string): { previous?: Article; next?: Article } {
  const index = ARTICLES.findIndex((article) => article.path === path);
  return { previous: index > 0 ? ARTICLES[index - 1] : undefined, next: ARTICLES[index + 1] };
}

/** 2026-11-16 → 16 November 2026 (the date itself, whatever the reader's time zone). */
export function formatArticleDate(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

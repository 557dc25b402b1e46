import { plural } from '../../common/plural';
import { html } from '../../engine/html-kit';

/** The report viewer opened from the app: the report in a frame and its exports. Server-rendered, no scripts. */
export interface PreviewPageInput {
  title: string;
  target: string;
  createdAt: Date;
  totalIssues: number | null;
  viewUrl: string;
  exports: Array<{ format: string; url: string }>;
}

const LABELS: Record<string, string> = { html: 'HTML', pdf: 'PDF', csv: 'CSV', json: 'JSON', sarif: 'SARIF' };

export function previewPage(input: PreviewPageInput): string {
  const issues = input.totalIssues === null ? '' : ` · ${plural(input.totalIssues, 'issue')}`;
  const buttons = input.exports.map(({ format, url }) => html`<a class="export" href="${url}" download>${LABELS[format] ?? format.toUpperCase()}</a>`);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.title} · ${input.target} · vibeeval</title>
<style>
  :root { color-scheme: light; font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; }
  * { box-sizing: border-box; }
  body { margin: 0; display: flex; flex-direction: column; height: 100vh; background: #f1f5f9; color: #0f172a; }
  header { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; justify-content: space-between; padding: 12px 20px; background: #0f172a; color: #f8fafc; }
  h1 { font-size: 16px; margin: 0; }
  .meta { font-size: 13px; color: #cbd5e1; word-break: break-all; }
  nav { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
  nav span { font-size: 13px; color: #cbd5e1; }
  .export { display: inline-block; padding: 6px 12px; border-radius: 6px; background: #1e293b; color: #f8fafc; text-decoration: none; font-size: 13px; font-weight: 600; border: 1px solid #334155; }
  .export:hover, .export:focus-visible { background: #334155; outline: 2px solid #93c5fd; outline-offset: 1px; }
  iframe { flex: 1; width: 100%; border: 0; background: #fff; }
</style>
</head>
<body>
<header>
  <div>
    <h1>${input.title}</h1>
    <div class="meta">${input.target} · ${input.createdAt.toISOString().replace('T', ' ').slice(0, 16)} UTC${issues}</div>
  </div>
  <nav aria-label="Export the report"><span>Export</span>${buttons}</nav>
</header>
<iframe src="${input.viewUrl}" title="${input.title}"></iframe>
</body>
</html>`.toString();
}

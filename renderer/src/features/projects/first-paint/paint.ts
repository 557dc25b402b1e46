import type { Project } from '@common/projects';
import { projectTitle } from '../../../ui/project-title';
import { projectStatusTone } from '../../../ui/tones';
import { urlParts } from '../../../ui/url-parts';
import { pageCount, updatedText } from '../components/project-card-text';
import { TEMPLATE_PAGES, TEMPLATE_URL } from './template-project';

// The project list, painted from the start script's early answer (renderer/start-after-paint.js asks for GET
// /projects while the app's modules load) by cloning the parts the build rendered with the app's own components
// (templates.tsx) and putting the user's values in them: the user's projects are on screen as soon as the answer
// is, and the app's render that follows draws the same cards. Nothing here may load React.

/** The fields of a project its card shows. */
type CardProject = Pick<Project, 'id' | 'url' | 'status' | 'instruction_text' | 'num_pages' | 'creation_date' | 'last_test'> & {
  latest_scan: { state: string; grade: string | null } | null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isString = (value: unknown): value is string => typeof value === 'string';
const isNullableString = (value: unknown) => value === null || isString(value);

function isCardProject(value: unknown): value is CardProject {
  if (!value || typeof value !== 'object') return false;
  const project = value as Record<string, unknown>;
  const scan = project.latest_scan as Record<string, unknown> | null | undefined;
  return (
    isString(project.id) &&
    UUID.test(project.id) &&
    isString(project.url) &&
    isString(project.status) &&
    isNullableString(project.instruction_text) &&
    Number.isInteger(project.num_pages) &&
    isString(project.creation_date) &&
    isNullableString(project.last_test) &&
    (scan === null || (typeof scan === 'object' && isString(scan.state) && isNullableString(scan.grade)))
  );
}

/** The body of GET /projects as the cards need it, or null when it is not a list of such projects. */
export function readProjectList(body: unknown): CardProject[] | null {
  return Array.isArray(body) && body.every(isCardProject) ? body : null;
}

/**
 * The body of GET /project/{id} as the page's top needs it, or null: another shape, another project, or a scan in
 * progress (the top then shows its progress bar, which the app draws).
 */
export function readProject(body: unknown, id: string): CardProject | null {
  if (!isCardProject(body) || body.id.toLowerCase() !== id.toLowerCase()) return null;
  const state = body.latest_scan?.state;
  return state === 'queued' || state === 'running' ? null : body;
}

/** A copy of the template part `name`, or null when the build rendered none by that name. */
function part(templates: DocumentFragment, name: string): Element | null {
  const holder = templates.querySelector(`[data-template="${name}"]`);
  return holder?.firstElementChild ? (holder.firstElementChild.cloneNode(true) as Element) : null;
}

/** The innermost element of `root` whose text is `text`, or whose text starts with `prefix`. */
function elementWithText(root: Element, match: (text: string) => boolean): Element | null {
  const all = root.querySelectorAll('*');
  for (let i = all.length - 1; i >= 0; i--) {
    const element = all[i]!;
    if (element.childElementCount === 0 && match(element.textContent ?? '')) return element;
  }
  return null;
}

/** The URL as the card's UrlText writes it: its parts with a line-break opportunity (<wbr>) between them. */
function urlNodes(document: Document, url: string): Node[] {
  return urlParts(url).flatMap((text, index) => (index > 0 ? [document.createElement('wbr'), document.createTextNode(text)] : [document.createTextNode(text)]));
}

/** One project's card, or null when the templates lack a part it needs (a grade the build did not render). */
function card(templates: DocumentFragment, project: CardProject, now: Date): Element | null {
  const document = templates.ownerDocument;
  const title = projectTitle(project);
  const byUrl = title === project.url;
  const element = part(templates, byUrl ? 'card-url' : 'card-titled');
  const link = element?.querySelector('a[href]');
  const status = element?.querySelector('[data-testid="status-badge"]');
  const newStatus = part(templates, `status-${projectStatusTone(project.status)}`);
  const grade = project.latest_scan?.state === 'completed' ? project.latest_scan.grade : null;
  const gradeBadge = grade ? part(templates, `grade-${grade}`) : null;
  const pages = element && elementWithText(element, (text) => text === pageCount(TEMPLATE_PAGES));
  const updated = element && elementWithText(element, (text) => text.startsWith('Last updated '));
  const urlLine = byUrl ? null : element && elementWithText(element, (text) => text === TEMPLATE_URL);
  if (!element || !link || !status || !newStatus || (grade && !gradeBadge) || !pages || !updated || (!byUrl && !urlLine)) return null;

  link.setAttribute('href', `/dashboard/projects/${project.id}`);
  link.replaceChildren(...(byUrl ? urlNodes(document, title) : [document.createTextNode(title)]));
  urlLine?.replaceChildren(project.url);
  newStatus.textContent = project.status;
  status.replaceWith(newStatus);
  if (gradeBadge) newStatus.before(gradeBadge);
  pages.textContent = pageCount(project.num_pages);
  updated.textContent = updatedText(project, now);
  return element;
}

/**
 * Shows `projects` in the prerendered page's project grid (its skeletons replaced), with the 'Create New Project'
 * tile after them and 'Load more projects' under them when the server has more. Changes nothing and answers
 * false when a part is missing.
 */
export function paintProjectList(templates: DocumentFragment, grid: Element, projects: CardProject[], more: boolean, now = new Date()): boolean {
  const cards = projects.map((project) => card(templates, project, now));
  const tile = part(templates, projects.length === 0 ? 'create-tile-empty' : 'create-tile');
  const loadMore = more ? part(templates, 'load-more') : null;
  const below = grid.nextElementSibling;
  if (!tile || cards.some((element) => !element) || (more && (!loadMore || !below))) return false;
  grid.replaceChildren(...(cards as Element[]), tile);
  grid.setAttribute('aria-busy', 'false');
  if (loadMore) below?.replaceChildren(loadMore);
  return true;
}

/**
 * Shows `project`'s top (back, name, status, grade, URL, Run Test, Edit, Delete) in place of the prerendered
 * project page's loading state. Changes nothing and answers false when a part is missing.
 */
export function paintProjectPage(templates: DocumentFragment, loading: Element, project: CardProject): boolean {
  const title = projectTitle(project);
  const byUrl = title === project.url;
  const element = part(templates, byUrl ? 'project-url' : 'project-titled');
  const heading = element?.querySelector('h1');
  const status = element?.querySelector('[data-testid="status-badge"]');
  const newStatus = part(templates, `status-${projectStatusTone(project.status)}`);
  const grade = project.latest_scan?.state === 'completed' ? project.latest_scan.grade : null;
  const gradeBadge = grade ? part(templates, `header-grade-${grade}`) : null;
  const urlLine = byUrl ? null : element && elementWithText(element, (text) => text === TEMPLATE_URL);
  if (!element || !heading || !status || !newStatus || (grade && !gradeBadge) || (!byUrl && !urlLine)) return false;

  heading.textContent = title;
  urlLine?.replaceChildren(project.url);
  newStatus.textContent = project.status;
  status.replaceWith(newStatus);
  if (gradeBadge) newStatus.after(gradeBadge);
  loading.replaceWith(element);
  return true;
}

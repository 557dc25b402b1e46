import type { Project } from '@common/projects';

// The project the build renders the list's templates with (templates.tsx), and the values the painter (paint.ts)
// finds in their clones to put a real project's in their place. Each is a value no real project can have, so a
// text or an attribute that holds one is the template's own.

export const TEMPLATE_ID = '00000000-0000-4000-8000-00000000f1a7';
export const TEMPLATE_TITLE = 'first-paint-title';
export const TEMPLATE_URL = 'https://first-paint.invalid/';
/** Rendered as '7,531 pages'. */
export const TEMPLATE_PAGES = 7531;

/** A project titled by its instruction text, so its card shows the title and the URL below it. */
export const TITLED_TEMPLATE: Project = {
  id: TEMPLATE_ID,
  url: TEMPLATE_URL,
  status: 'active',
  instruction_text: TEMPLATE_TITLE,
  secret_instruction: null,
  num_pages: TEMPLATE_PAGES,
  creation_date: '2000-01-01T12:00:00.000Z',
  last_test: null,
  latest_scan: null,
};

/** A project without instruction text: its card's title is the URL. */
export const URL_TEMPLATE: Project = { ...TITLED_TEMPLATE, instruction_text: null };

/** The status badges' colours (ui/tones.ts projectStatusPalette): one template each, 'other' for any other status. */
export const STATUS_TEMPLATES = ['active', 'completed', 'archived', 'other'] as const;

/** The id of the <template> element that holds them all, outside #root. */
export const TEMPLATES_ELEMENT_ID = 'first-paint-projects';

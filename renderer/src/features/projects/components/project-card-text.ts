import { plural } from '@common/plural';
import type { Project } from '@common/projects';
import { formatRelativeDate } from '../../../ui/relative-date';

// The texts of a project card, shared by the card (project-card.tsx) and the list painted before the app runs
// (first-paint/paint.ts), which must not load React to write them.

export const pageCount = (pages: number) => plural(pages, 'page');

/** 'Last updated 5 minutes ago': since the project's last test, or its creation when it has none. */
export const updatedText = (project: Pick<Project, 'last_test' | 'creation_date'>, now?: Date) =>
  `Last updated ${formatRelativeDate(project.last_test ?? project.creation_date, now)}`;

import type { Project } from '@common/projects';

/** How a project is named on screen: its instruction text when it has one, else its URL. */
export const projectTitle = (project: Pick<Project, 'instruction_text' | 'url'>) => project.instruction_text?.trim() || project.url;

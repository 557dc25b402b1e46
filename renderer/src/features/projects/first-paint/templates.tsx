import { GRADES } from '@common/scan';
import { MemoryRouter } from 'react-router-dom';
import { GradeBadge, ProjectStatusBadge } from '../../../ui/badges';
import { LoadMore } from '../../../ui/load-more';
import { CreateProjectTile } from '../components/create-project-tile';
import { ProjectCard } from '../components/project-card';
import { texts } from '../texts';
import { STATUS_TEMPLATES, TEMPLATES_ELEMENT_ID, TITLED_TEMPLATE, URL_TEMPLATE } from './template-project';

const noop = () => undefined;
const morePages = { hasNextPage: true, isFetchingNextPage: false, fetchNextPage: async () => undefined };

/**
 * The project list's parts as the app renders them, for the build to put in the prerendered /dashboard/projects
 * page (in one inert <template>, outside #root): the start script clones them to show a signed-in user's projects
 * from its early answer before the app runs (paint.ts). Rendered by the same components, with the same styles,
 * so the app's own render that follows looks the same.
 */
export function ProjectListTemplates() {
  return (
    <template id={TEMPLATES_ELEMENT_ID}>
      <MemoryRouter>
        <div data-template="card-titled">
          <ProjectCard project={TITLED_TEMPLATE} />
        </div>
        <div data-template="card-url">
          <ProjectCard project={URL_TEMPLATE} />
        </div>
      </MemoryRouter>
      {GRADES.map((grade) => (
        <div key={grade} data-template={`grade-${grade}`}>
          <GradeBadge grade={grade} label="Latest scan grade" data-testid="card-grade" />
        </div>
      ))}
      {STATUS_TEMPLATES.map((status) => (
        <div key={status} data-template={`status-${status}`}>
          <ProjectStatusBadge status={status} />
        </div>
      ))}
      <div data-template="create-tile">
        <CreateProjectTile empty={false} onClick={noop} />
      </div>
      <div data-template="create-tile-empty">
        <CreateProjectTile empty onClick={noop} />
      </div>
      <div data-template="load-more">
        <LoadMore query={morePages} label={texts.loadMoreProjects} testId="load-more-projects" />
      </div>
    </template>
  );
}

import { Stack } from '@chakra-ui/react';
import { GRADES } from '@common/scan';
import { MemoryRouter } from 'react-router-dom';
import { GradeBadge, ProjectStatusBadge } from '../../../ui/badges';
import { LoadMore } from '../../../ui/load-more';
import { CreateProjectTile } from '../components/create-project-tile';
import { ProjectCard } from '../components/project-card';
import { ProjectHeader } from '../components/project-header';
import { texts } from '../texts';
import { STATUS_TEMPLATES, TEMPLATES_ELEMENT_ID, TITLED_TEMPLATE, URL_TEMPLATE } from './template-project';

const noop = () => undefined;
const morePages = { hasNextPage: true, isFetchingNextPage: false, fetchNextPage: async () => undefined };

/** The list's parts: a card of each kind, the grade badges as a card shows them, the tile and 'Load more'. */
function ListParts() {
  return (
    <>
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
      <div data-template="create-tile">
        <CreateProjectTile empty={false} onClick={noop} />
      </div>
      <div data-template="create-tile-empty">
        <CreateProjectTile empty onClick={noop} />
      </div>
      <div data-template="load-more">
        <LoadMore query={morePages} label={texts.loadMoreProjects} testId="load-more-projects" />
      </div>
    </>
  );
}

/** A project page's parts: its top (in the page's own stack) of each kind, and the grade badges as it shows them. */
function ProjectParts() {
  const header = (project: typeof TITLED_TEMPLATE) => (
    <Stack gap="6">
      <ProjectHeader project={project} scan={null} runPending={false} onBack={noop} onRun={noop} onEdit={noop} onDelete={noop} />
    </Stack>
  );
  return (
    <>
      <div data-template="project-titled">{header(TITLED_TEMPLATE)}</div>
      <div data-template="project-url">{header(URL_TEMPLATE)}</div>
      {GRADES.map((grade) => (
        <div key={grade} data-template={`header-grade-${grade}`}>
          <GradeBadge grade={grade} label="Latest scan grade" />
        </div>
      ))}
    </>
  );
}

/**
 * The parts of a dashboard page that the build puts in its prerendered HTML (in one inert <template>, outside
 * #root) for the start script to show a signed-in user's first data before the app runs (paint.ts): rendered by
 * the app's own components, with the same styles, so the app's render that follows looks the same.
 */
export function FirstPaintTemplates({ page }: { page: 'list' | 'project' }) {
  return (
    <template id={TEMPLATES_ELEMENT_ID}>
      {page === 'list' ? <ListParts /> : <ProjectParts />}
      {STATUS_TEMPLATES.map((status) => (
        <div key={status} data-template={`status-${status}`}>
          <ProjectStatusBadge status={status} />
        </div>
      ))}
    </template>
  );
}

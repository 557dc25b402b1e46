import { Button, Flex, SimpleGrid, Stack, VisuallyHidden } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useLiveUpdates } from '../../api/live';
import { useMenuCommand } from '../../app/menu-commands';
import { LoadMore } from '../../ui/load-more';
import { PageHeading } from '../../ui/page-heading';
import { useOpenedOnce } from '../../ui/use-opened-once';
import { CreateProjectTile } from './components/create-project-tile';
import { ProjectCard, ProjectCardSkeleton } from './components/project-card';
import { useProjects } from './hooks/use-projects';
import { texts } from './texts';

const SKELETON_CARDS = 6;
// Loaded when first opened: the list's first load does not carry the form.
const CreateProjectDialog = lazy(() => import('./components/create-project-dialog').then((m) => ({ default: m.CreateProjectDialog })));

/** /dashboard/projects: every project as a card, plus a 'Create New Project' tile. */
export function ProjectsPage() {
  const projects = useProjects();
  const [creating, setCreating] = useState(false);
  const dialogWanted = useOpenedOnce(creating);
  // A scan that finishes while the list is shown updates its card's grade.
  useLiveUpdates();
  // The desktop app's File › New Project.
  useMenuCommand('new-project', () => setCreating(true));

  return (
    <Stack gap="0">
      <Flex justify="space-between" align="start" gap="4" wrap="wrap">
        <PageHeading title="Projects" subtitle="Manage your project assets in one place" />
        <Button colorPalette="brand" onClick={() => setCreating(true)}>
          <Plus />
          New Project
        </Button>
      </Flex>

      <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4" aria-busy={projects.isPending} data-testid="project-grid">
        {projects.isPending ? (
          <>
            <VisuallyHidden role="status">Loading projects...</VisuallyHidden>
            {Array.from({ length: SKELETON_CARDS }, (_, i) => (
              <ProjectCardSkeleton key={i} />
            ))}
          </>
        ) : (
          <>
            {projects.projects.map((project) => (
              <ProjectCard key={project.id} project={project} />
            ))}
            <CreateProjectTile empty={projects.projects.length === 0} onClick={() => setCreating(true)} />
          </>
        )}
      </SimpleGrid>
      <Flex justify="center" pt="4">
        <LoadMore query={projects} label={texts.loadMoreProjects} testId="load-more-projects" />
      </Flex>

      {dialogWanted && (
        <Suspense fallback={null}>
          <CreateProjectDialog open={creating} onOpenChange={setCreating} />
        </Suspense>
      )}
    </Stack>
  );
}

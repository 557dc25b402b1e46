import { Button, Flex, Icon, SimpleGrid, Stack, Text, VisuallyHidden, chakra } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useLiveUpdates } from '../../api/live';
import { useMenuCommand } from '../../app/menu-commands';
import { LoadMore } from '../../ui/load-more';
import { PageHeading } from '../../ui/page-heading';
import { useOpenedOnce } from '../../ui/use-opened-once';
import { ProjectCard, ProjectCardSkeleton } from './components/project-card';
import { useProjects } from './hooks/use-projects';

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
            {projects.projects.map((project) => <ProjectCard key={project.id} project={project} />)}
            <chakra.button
              type="button"
              onClick={() => setCreating(true)}
              display="flex"
              flexDirection="column"
              alignItems="center"
              justifyContent="center"
              gap="2"
              minH="36"
              p="6"
              borderWidth="2px"
              borderStyle="dashed"
              borderColor="border.emphasized"
              borderRadius="l3"
              color="fg.muted"
              bg="transparent"
              cursor="pointer"
              transition="border-color 0.15s, color 0.15s, background 0.15s"
              _hover={{ borderColor: 'brand.solid', color: 'brand.fg', bg: 'brand.subtle' }}
              focusVisibleRing="outside"
              data-testid="create-project-tile"
            >
              <Icon boxSize="6" aria-hidden="true">
                <Plus />
              </Icon>
              <Text fontWeight="medium">Create New Project</Text>
              {projects.projects.length === 0 && (
                <Text fontSize="sm" textAlign="center">
                  Add a website to scan it for security holes.
                </Text>
              )}
            </chakra.button>
          </>
        )}
      </SimpleGrid>
      <Flex justify="center" pt="4">
        <LoadMore query={projects} label="Load more projects" testId="load-more-projects" />
      </Flex>

      {dialogWanted && (
        <Suspense fallback={null}>
          <CreateProjectDialog open={creating} onOpenChange={setCreating} />
        </Suspense>
      )}
    </Stack>
  );
}

import { Card, HStack, Icon, LinkBox, LinkOverlay, Skeleton, SkeletonText, Stack, Text } from '@chakra-ui/react';
import type { Project } from '@common/projects';
import { Clock, FileText } from 'lucide-react';
import { Link as RouterLink } from 'react-router-dom';
import { UrlText } from '../../../ui/url-text';
import { GradeBadge, ProjectStatusBadge } from '../../../ui/badges';
import { pageCount, updatedText } from './project-card-text';
import { projectTitle } from '../../../ui/project-title';

/** One project in the grid; the whole card opens /dashboard/projects/{id}. */
export function ProjectCard({ project }: { project: Project }) {
  const title = projectTitle(project);
  const grade = project.latest_scan?.state === 'completed' ? project.latest_scan.grade : null;
  return (
    <LinkBox asChild>
      <Card.Root
        size="sm"
        h="full"
        transition="box-shadow 0.15s, border-color 0.15s"
        _hover={{ borderColor: 'brand.emphasized', shadow: 'md' }}
        _focusWithin={{ borderColor: 'brand.solid' }}
        data-testid="project-card"
      >
        <Card.Header>
          <HStack justify="space-between" align="start" gap="3">
            <Card.Title fontSize="md" lineClamp={2} wordBreak="break-word">
              <LinkOverlay asChild>
                <RouterLink to={`/dashboard/projects/${project.id}`}>{title === project.url ? <UrlText url={title} /> : title}</RouterLink>
              </LinkOverlay>
            </Card.Title>
            <HStack gap="1.5" flexShrink="0">
              {grade && <GradeBadge grade={grade} label="Latest scan grade" data-testid="card-grade" />}
              <ProjectStatusBadge status={project.status} />
            </HStack>
          </HStack>
          {title !== project.url && (
            <Text fontSize="sm" color="fg.muted" truncate>
              {project.url}
            </Text>
          )}
        </Card.Header>
        <Card.Footer mt="auto" pt="3">
          <HStack justify="space-between" w="full" fontSize="sm" color="fg.muted" gap="3" wrap="wrap">
            <HStack gap="1.5">
              <Icon boxSize="3.5" aria-hidden="true">
                <FileText />
              </Icon>
              <Text>{pageCount(project.num_pages)}</Text>
            </HStack>
            <HStack gap="1.5">
              <Icon boxSize="3.5" aria-hidden="true">
                <Clock />
              </Icon>
              <Text>{updatedText(project)}</Text>
            </HStack>
          </HStack>
        </Card.Footer>
      </Card.Root>
    </LinkBox>
  );
}

export function ProjectCardSkeleton() {
  return (
    <Card.Root size="sm" data-testid="project-card-skeleton" aria-hidden="true">
      <Card.Header>
        <Stack gap="2">
          <HStack justify="space-between">
            <Skeleton h="5" w="60%" />
            <Skeleton h="5" w="14" />
          </HStack>
          <Skeleton h="4" w="40%" />
        </Stack>
      </Card.Header>
      <Card.Footer pt="3">
        <SkeletonText noOfLines={1} w="full" />
      </Card.Footer>
    </Card.Root>
  );
}

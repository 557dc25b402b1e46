import { Box, Button, Flex, Heading, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import type { Project, ScanSummary } from '@common/projects';
import { ArrowLeft, Pencil, Play, Trash2 } from 'lucide-react';
import { GradeBadge, ProjectStatusBadge } from '../../../ui/badges';
import { projectTitle } from '../../../ui/project-title';
import { ScanProgressBar } from './scan-progress';

/** The scan in progress, shown as the header's progress bar. */
export interface HeaderScan {
  state: 'queued' | 'running';
  progress: ScanSummary['progress'] | undefined;
}

interface ProjectHeaderProps {
  project: Project;
  /** The scan that is queued or running, or null. */
  scan: HeaderScan | null;
  runPending: boolean;
  onBack: () => void;
  onRun: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** The top of a project's page: back, its name, status, grade and URL, and Run Test, Edit and Delete. */
export function ProjectHeader({ project, scan, runPending, onBack, onRun, onEdit, onDelete }: ProjectHeaderProps) {
  const title = projectTitle(project);
  const latest = project.latest_scan;
  return (
    <Flex gap="4" justify="space-between" align={{ base: 'stretch', md: 'start' }} direction={{ base: 'column', md: 'row' }}>
      <HStack align="start" gap="3" minW="0">
        <IconButton aria-label="Back to Projects" variant="ghost" size="sm" mt="0.5" onClick={onBack}>
          <ArrowLeft />
        </IconButton>
        <Stack gap="1" minW="0">
          <Heading as="h1" size="2xl" letterSpacing="tight" wordBreak="break-word" lineClamp={3}>
            {title}
          </Heading>
          <HStack gap="2" wrap="wrap">
            <ProjectStatusBadge status={project.status} />
            {latest?.state === 'completed' && latest.grade && <GradeBadge grade={latest.grade} label="Latest scan grade" />}
            {title !== project.url && (
              <Text fontSize="sm" color="fg.muted" wordBreak="break-all">
                {project.url}
              </Text>
            )}
          </HStack>
        </Stack>
      </HStack>
      <Stack gap="2" flexShrink="0" minW={{ md: '64' }}>
        <HStack gap="2" justify={{ base: 'stretch', md: 'flex-end' }} wrap="wrap">
          <Button
            colorPalette="brand"
            flex={{ base: '1', md: 'initial' }}
            onClick={onRun}
            loading={runPending}
            disabled={scan !== null}
            aria-describedby={scan ? 'run-test-progress' : undefined}
          >
            <Play />
            {scan ? 'Testing...' : 'Run Test'}
          </Button>
          <Button variant="outline" flex={{ base: '1', md: 'initial' }} onClick={onEdit}>
            <Pencil />
            Edit
          </Button>
          <Button variant="outline" colorPalette="red" flex={{ base: '1', md: 'initial' }} onClick={onDelete}>
            <Trash2 />
            Delete
          </Button>
        </HStack>
        {scan && (
          <Box id="run-test-progress" w="full">
            <ScanProgressBar progress={scan.progress} state={scan.state} />
          </Box>
        )}
      </Stack>
    </Flex>
  );
}

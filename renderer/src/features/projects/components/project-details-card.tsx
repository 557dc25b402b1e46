import { Box, Card, Text } from '@chakra-ui/react';
import type { Project } from '@common/projects';
import type { ReactNode } from 'react';
import { ExternalLink } from '../../../ui/external-link';
import { formatLongDate } from '../../../ui/relative-date';
import { ProjectStatusBadge } from '../../../ui/badges';
import { MaskedSecret } from './masked-secret';
import { pageCount } from './project-card-text';

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <Box as="dt" fontSize="sm" fontWeight="medium" color="fg.muted" pt={{ base: '3', md: '0' }}>
        {label}
      </Box>
      <Box as="dd" minW="0" fontSize="sm" data-testid={testId}>
        {children}
      </Box>
    </>
  );
}

/** Overview's 'Project Details' card (spec section 2). */
export function ProjectDetailsCard({ project }: { project: Project }) {
  return (
    <Card.Root data-testid="project-details">
      <Card.Header>
        <Card.Title as="h2">Project Details</Card.Title>
      </Card.Header>
      <Card.Body>
        <Box as="dl" display="grid" gridTemplateColumns={{ base: '1fr', md: '14rem minmax(0, 1fr)' }} columnGap="6" rowGap={{ base: '1', md: '4' }}>
          <Row label="URL">
            <ExternalLink href={project.url} color="brand.fg" wordBreak="break-all">
              {project.url}
            </ExternalLink>
          </Row>
          <Row label="Test Instructions">
            {project.instruction_text?.trim() ? (
              <Text whiteSpace="pre-wrap" wordBreak="break-word">
                {project.instruction_text}
              </Text>
            ) : (
              <Text color="fg.muted">No test instructions provided</Text>
            )}
          </Row>
          <Row label="Credentials / Test User Details">
            <MaskedSecret value={project.secret_instruction} />
          </Row>
          <Row label="Created">{formatLongDate(project.creation_date)}</Row>
          <Row label="Last Tested" testId="last-tested">
            {project.last_test ? formatLongDate(project.last_test) : 'Never'}
          </Row>
          <Row label="Status">
            <ProjectStatusBadge status={project.status} />
          </Row>
          <Row label="Pages">{pageCount(project.num_pages)}</Row>
        </Box>
      </Card.Body>
    </Card.Root>
  );
}

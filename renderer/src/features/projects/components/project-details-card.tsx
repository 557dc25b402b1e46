import { Card, DataList, Text } from '@chakra-ui/react';
import type { Project } from '@common/projects';
import { ExternalLink } from '../../../ui/external-link';
import { formatLongDate } from '../../../ui/relative-date';
import { ProjectStatusBadge } from './badges';
import { MaskedSecret } from './masked-secret';
import { pageCount } from './project-card';

/** Overview's 'Project Details' card (spec section 2). */
export function ProjectDetailsCard({ project }: { project: Project }) {
  return (
    <Card.Root data-testid="project-details">
      <Card.Header>
        <Card.Title as="h2">Project Details</Card.Title>
      </Card.Header>
      <Card.Body>
        <DataList.Root orientation={{ base: 'vertical', md: 'horizontal' }} gap="4">
          <DataList.Item>
            <DataList.ItemLabel>URL</DataList.ItemLabel>
            <DataList.ItemValue minW="0">
              <ExternalLink href={project.url} color="brand.fg" wordBreak="break-all">
                {project.url}
              </ExternalLink>
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Test Instructions</DataList.ItemLabel>
            <DataList.ItemValue>
              {project.instruction_text?.trim() ? (
                <Text whiteSpace="pre-wrap" wordBreak="break-word">
                  {project.instruction_text}
                </Text>
              ) : (
                <Text color="fg.muted">No test instructions provided</Text>
              )}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Credentials / Test User Details</DataList.ItemLabel>
            <DataList.ItemValue minW="0">
              <MaskedSecret value={project.secret_instruction} />
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Created</DataList.ItemLabel>
            <DataList.ItemValue>{formatLongDate(project.creation_date)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Last Tested</DataList.ItemLabel>
            <DataList.ItemValue data-testid="last-tested">
              {project.last_test ? formatLongDate(project.last_test) : 'Never'}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Status</DataList.ItemLabel>
            <DataList.ItemValue>
              <ProjectStatusBadge status={project.status} />
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Pages</DataList.ItemLabel>
            <DataList.ItemValue>{pageCount(project.num_pages)}</DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
      </Card.Body>
    </Card.Root>
  );
}

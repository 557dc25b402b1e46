import { Box, Card, Code, HStack, Link, Skeleton, Stack, Text, VStack } from '@chakra-ui/react';
import type { ContinuousBuild } from '@common/continuous';
import { Link as RouterLink } from 'react-router-dom';
import { LoadErrorCard } from '../../../ui/load-error-card';
import { LoadMore } from '../../../ui/load-more';
import { formatEventTime } from '../../../ui/relative-date';
import { SeverityBadge } from '../../../ui/badges';
import { buildsCallError, changeSummary } from '../continuous-format';
import type { useContinuousBuilds } from '../hooks/use-continuous-builds';
import { texts } from '../texts';
import { BuildStatusBadge } from './build-status-badge';

/** Event History: the project's builds newest first, each with what changed and a link to its scan. */
export function HistoryTab({ builds }: { builds: ReturnType<typeof useContinuousBuilds> }) {
  if (builds.isError && builds.builds.length === 0) {
    return <LoadErrorCard problem={texts.buildsFailed} reason={buildsCallError(builds.error)} actionLabel={texts.retry} onAction={() => void builds.refetch()} />;
  }
  if (builds.isPending) {
    return (
      <Stack gap="3" aria-busy="true" aria-label="Loading builds">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} h="16" borderRadius="md" />
        ))}
      </Stack>
    );
  }
  if (builds.builds.length === 0) {
    return (
      <Card.Root variant="outline">
        <Card.Body>
          <VStack gap="2" py="8" textAlign="center">
            <Text fontWeight="semibold">{texts.historyEmpty}</Text>
            <Text color="fg.muted" fontSize="sm">
              {texts.historyEmptyHint}
            </Text>
          </VStack>
        </Card.Body>
      </Card.Root>
    );
  }
  return (
    <Stack gap="3">
      <Stack as="ol" gap="3" listStyleType="none" m="0" p="0" data-testid="build-list">
        {builds.builds.map((build) => (
          <BuildRow key={build.id} build={build} />
        ))}
      </Stack>
      <LoadMore query={builds} label={texts.loadMore} />
    </Stack>
  );
}

function BuildRow({ build }: { build: ContinuousBuild }) {
  return (
    <Box as="li" borderWidth="1px" borderRadius="md" p="4" data-testid="build-row" minW="0">
      <HStack justify="space-between" align="start" wrap="wrap" gap="2">
        <HStack gap="2" wrap="wrap" minW="0">
          <BuildStatusBadge status={build.status} />
          <Code data-testid="build-hash">{build.build_hash}</Code>
          <Text fontSize="sm" color="fg.muted">
            {texts.triggers[build.trigger]}
          </Text>
        </HStack>
        <Text fontSize="sm" color="fg.muted" data-testid="build-time">
          {formatEventTime(build.timestamp)}
        </Text>
      </HStack>
      <Box mt="2">
        <Changes build={build} />
      </Box>
      {build.scan_id && (
        <Link asChild color="brand.fg" fontSize="sm" mt="2">
          <RouterLink to={`/dashboard/projects/${encodeURIComponent(build.project_id)}`}>{texts.viewScan}</RouterLink>
        </Link>
      )}
    </Box>
  );
}

function Changes({ build }: { build: ContinuousBuild }) {
  const summary = changeSummary(build);
  if (summary.kind === 'pending') {
    return (
      <Text fontSize="sm" color="fg.muted">
        {texts.pendingChanges}
      </Text>
    );
  }
  if (summary.kind === 'broken') {
    return (
      <Text fontSize="sm" color="fg.error" wordBreak="break-word">
        {texts.siteBroke}: {summary.reason}
      </Text>
    );
  }
  return (
    <Stack gap="1.5" fontSize="sm" data-testid="build-changes">
      <Text fontWeight="medium">{summary.headline}</Text>
      {summary.findings.length > 0 && (
        <Stack as="ul" gap="1" listStyleType="none" m="0" p="0">
          {summary.findings.map((finding) => (
            <HStack as="li" key={finding.fingerprint} gap="2" align="start" minW="0">
              <SeverityBadge severity={finding.severity} size="sm" flexShrink={0} />
              <Text wordBreak="break-word" minW="0">
                {finding.title}
              </Text>
            </HStack>
          ))}
          {summary.unlisted > 0 && <Text color="fg.muted">+ {summary.unlisted} more</Text>}
        </Stack>
      )}
    </Stack>
  );
}

import { Badge, Box, Card, Grid, HStack, Heading, List, Progress, Skeleton, Stack, Text } from '@chakra-ui/react';
import { API_PLAN_NAMES } from '@common/api-keys';
import { format, isValid, parseISO } from 'date-fns';
import { useServices } from '../../../app/services';
import { CodeBlock } from '../../../ui/code-block';
import { LoadErrorCard } from '../../../ui/load-error-card';
import { UNKNOWN_TIME } from '../../../ui/relative-date';
import { PLAN_ROWS, usageView } from '../api-format';
import { useApiUsage } from '../hooks/use-api-usage';
import { PLACEHOLDER_KEY } from '../openapi';
import { texts } from '../texts';
import { PlanLimitNotice } from '../../../ui/plan-limit';

/** When today's count starts again, e.g. 'Nov 25, 12:00 AM' (local time), or 'Unknown time'. */
function formatReset(value: string): string {
  const date = parseISO(value);
  return isValid(date) ? format(date, 'MMM d, h:mm a') : UNKNOWN_TIME;
}

/** The Overview tab: the plan and today's usage, the base URL, a three-step quick start, and the plans' limits. */
export function OverviewTab({ onOpenTab }: { onOpenTab: (tab: 'keys' | 'docs') => void }) {
  const { serverOrigin } = useServices();
  const baseUrl = `${serverOrigin.replace(/\/+$/, '')}/v1`;
  return (
    <Stack gap="6">
      <UsageCard />
      <Card.Root variant="outline">
        <Card.Body gap="4">
          <Heading as="h2" size="md">
            {texts.baseUrl}
          </Heading>
          <CodeBlock code={baseUrl} copyLabel="Copy base URL" testId="api-base-url" />
          <Heading as="h2" size="md">
            {texts.quickStart}
          </Heading>
          <List.Root as="ol" gap="3" ps="5">
            <List.Item>
              <Text>
                Create a key in the{' '}
                <Box as="button" color="brand.fg" textDecoration="underline" onClick={() => onOpenTab('keys')}>
                  API Keys
                </Box>{' '}
                tab and copy it (it is shown once).
              </Text>
            </List.Item>
            <List.Item>
              <Stack gap="2" minW="0">
                <Text>List your scans with it:</Text>
                <CodeBlock code={`curl '${baseUrl}/scans' \\\n  -H 'Authorization: Bearer ${PLACEHOLDER_KEY}'`} copyLabel="Copy quick start command" />
              </Stack>
            </List.Item>
            <List.Item>
              <Text>
                Read the{' '}
                <Box as="button" color="brand.fg" textDecoration="underline" onClick={() => onOpenTab('docs')}>
                  Documentation
                </Box>{' '}
                for every call, with curl and JavaScript examples.
              </Text>
            </List.Item>
          </List.Root>
        </Card.Body>
      </Card.Root>
      <PlansCard />
    </Stack>
  );
}

function UsageCard() {
  const usage = useApiUsage();
  if (usage.isError) {
    return <LoadErrorCard problem={texts.usageLoadFailed} reason={usage.error.message} actionLabel={texts.retry} onAction={() => void usage.refetch()} />;
  }
  if (!usage.data) {
    return (
      <Card.Root variant="outline" aria-busy="true" aria-label="Loading API usage">
        <Card.Body gap="3">
          <Skeleton h="5" w="40" />
          <Skeleton h="3" />
          <Skeleton h="4" w="56" />
        </Card.Body>
      </Card.Root>
    );
  }
  const view = usageView(usage.data);
  return (
    <Card.Root variant="outline" data-testid="api-usage">
      <Card.Body gap="3">
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Heading as="h2" size="md">
            {texts.usageToday}
          </Heading>
          <HStack gap="2">
            <Text fontSize="sm" color="fg.muted">
              {texts.plan}
            </Text>
            <Badge colorPalette={usage.data.plan ? 'brand' : 'gray'} size="lg" data-testid="api-plan">
              {usage.data.plan ? API_PLAN_NAMES[usage.data.plan] : texts.noApiAccess}
            </Badge>
          </HStack>
        </HStack>
        {!usage.data.plan && <PlanLimitNotice detail={texts.noApiAccessDetail} />}
        {view.percent !== null && (
          <Progress.Root value={view.percent} max={100} colorPalette={view.exhausted ? 'red' : 'brand'} aria-label={texts.usageToday}>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        )}
        <HStack justify="space-between" wrap="wrap" gap="2" fontSize="sm">
          <Text data-testid="api-usage-label">{view.label}</Text>
          <Text color="fg.muted">
            {texts.resets} {formatReset(usage.data.resets_at)}
          </Text>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

function PlansCard() {
  return (
    <Card.Root variant="outline">
      <Card.Body gap="3">
        <Heading as="h2" size="md">
          {texts.plans}
        </Heading>
        <Grid templateColumns={{ base: '1fr 1fr', md: 'repeat(4, 1fr)' }} gap="3">
          {PLAN_ROWS.map((row) => (
            <Box key={row.plan} borderWidth="1px" borderRadius="md" p="3" data-testid={`plan-${row.plan}`}>
              <Text fontWeight="semibold">{row.name}</Text>
              <Text fontSize="sm" color="fg.muted">
                {row.limit}
              </Text>
            </Box>
          ))}
        </Grid>
      </Card.Body>
    </Card.Root>
  );
}

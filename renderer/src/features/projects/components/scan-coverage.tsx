import { Alert, Badge, Collapsible, HStack, List, Stack, Text } from '@chakra-ui/react';
import type { ScanCoverage } from '@common/scan';
import { backendLabel, coverageFacts, coverageGaps } from '@common/scan-coverage';
import { severityPalette } from '../../../ui/tones';
import { SignInsSummary } from './sign-ins';

/** What the scan could and could not check: gaps first, in plain words, then the backends and pages behind a login. */
export function ScanCoverageSummary({ coverage }: { coverage: ScanCoverage }) {
  const gaps = coverageGaps(coverage);
  const facts = coverageFacts(coverage);
  const backends = coverage.backends;
  const login = coverage.loginRequired;
  return (
    <Stack gap="3" as="section" aria-label="Coverage" data-testid="scan-coverage">
      {coverage.signIns && <SignInsSummary signIns={coverage.signIns} />}
      {gaps.length > 0 ? (
        <Alert.Root status="warning" data-testid="coverage-gaps">
          <Alert.Indicator />
          <Alert.Content minW="0">
            <Alert.Title>Not everything could be checked</Alert.Title>
            <Alert.Description>
              <List.Root gap="1" ps="4" mt="1">
                {gaps.map((gap) => (
                  <List.Item key={gap} wordBreak="break-word">
                    {gap}
                  </List.Item>
                ))}
              </List.Root>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ) : null}
      {facts && (
        <Text fontSize="sm" color="fg.muted" data-testid="coverage-facts">
          Coverage: {facts}.
        </Text>
      )}
      {(backends?.items.length ?? 0) + (login?.items.length ?? 0) > 0 && (
        <Collapsible.Root>
          <Collapsible.Trigger fontSize="sm" color="brand.fg" cursor="pointer">
            Backends and pages behind a login
          </Collapsible.Trigger>
          <Collapsible.Content>
            <List.Root gap="2" variant="plain" mt="2" fontSize="sm">
              {backends?.items.map((backend) => (
                <List.Item key={`${backend.kind} ${backend.target}`} display="block">
                  <HStack gap="2" wrap="wrap">
                    <Badge colorPalette={severityPalette(backend.checked ? 'secure' : 'medium')} variant="subtle">
                      {backend.checked ? 'Checked' : 'Not checked'}
                    </Badge>
                    <Text as="span" wordBreak="break-all">
                      {backendLabel(backend)}
                    </Text>
                  </HStack>
                  {backend.reason && (
                    <Text fontSize="xs" color="fg.muted" wordBreak="break-word">
                      {backend.reason}
                    </Text>
                  )}
                </List.Item>
              ))}
              {login?.items.map((page) => (
                <List.Item key={page.url} display="block">
                  <HStack gap="2" wrap="wrap">
                    <Badge colorPalette={severityPalette('medium')} variant="subtle">
                      Needs a login
                    </Badge>
                    <Text as="span" wordBreak="break-all">
                      {page.url}
                    </Text>
                  </HStack>
                </List.Item>
              ))}
            </List.Root>
            {(backends?.more ?? 0) + (login?.more ?? 0) > 0 && (
              <Text fontSize="xs" color="fg.muted" mt="1">
                and {(backends?.more ?? 0) + (login?.more ?? 0)} more (see the HTML report)
              </Text>
            )}
          </Collapsible.Content>
        </Collapsible.Root>
      )}
    </Stack>
  );
}

import { Accordion, Alert, Badge, Box, Card, Heading, HStack, List, SimpleGrid, Skeleton, Stack, Stat, Text, Wrap } from '@chakra-ui/react';
import type { Project, ProjectScanResponse } from '@common/projects';
import { findingTally, OWASP_2025, SEVERITIES, tallyText, type Finding, type ScanResult, type Severity } from '@common/scan';
import { coverageIncomplete } from '@common/scan-coverage';
import { fixPrompt } from '@common/fix-prompt';
import { distinguishingLines } from '@common/finding-rows';
import { ExternalLink } from '../../../ui/external-link';
import { SuppressedFindings } from '../../triage';
import { formatRelativeDate } from '../../../ui/relative-date';
import { severityPalette } from '../../../ui/tones';
import { useProjectScan } from '../hooks/use-project-scan';
import { useScanProgress } from '../hooks/use-scan-progress';
import { GradeBadge, SEVERITY_LABELS, SeverityBadge } from '../../../ui/badges';
import { FindingActions } from './finding-actions';
import { FindingList } from './finding-list';
import { ScanCoverageSummary } from './scan-coverage';
import { ScanProgressBar } from './scan-progress';
import { plural } from '@common/plural';

/** Overview's security section: the latest scan's progress, error, or results (beyond the spec). */
export function ScanSection({ project }: { project: Project }) {
  const latest = project.latest_scan;
  const live = useScanProgress(project.id);
  const scan = useProjectScan(project.id, latest?.state === 'completed');

  let body;
  if (!latest) {
    body = <Text color="fg.muted">No scan yet. Run Test to scan this site for security holes.</Text>;
  } else if (latest.state === 'queued' || latest.state === 'running') {
    const progress = live?.scan_id === latest.id ? live.progress : latest.progress;
    body = <ScanProgressBar progress={progress} state={latest.state} />;
  } else if (latest.state === 'failed') {
    body = (
      <Alert.Root status="error" data-testid="scan-error">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>The scan failed</Alert.Title>
          <Alert.Description wordBreak="break-word">{latest.error ?? 'The scan stopped without a result.'}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  } else if (scan.isPending) {
    body = (
      <Stack gap="3" aria-busy="true">
        <Skeleton h="16" />
        <Skeleton h="24" />
      </Stack>
    );
  } else if (scan.isError || !scan.data.result) {
    body = (
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Title>The scan results could not be loaded.</Alert.Title>
      </Alert.Root>
    );
  } else {
    body = <ScanReport projectId={project.id} response={scan.data} result={scan.data.result} />;
  }

  return (
    <Card.Root data-testid="scan-section">
      <Card.Header>
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Card.Title as="h2">Security Scan</Card.Title>
          {latest?.finished_at && (
            <Text fontSize="sm" color="fg.muted">
              Finished {formatRelativeDate(latest.finished_at)}
            </Text>
          )}
        </HStack>
      </Card.Header>
      <Card.Body>{body}</Card.Body>
    </Card.Root>
  );
}

function ScanReport({ projectId, response, result }: { projectId: string; response: ProjectScanResponse; result: ScanResult }) {
  const newOnes = new Set(response.new_fingerprints);
  const isRescan = response.previous_scan_id !== null;
  const seconds = (result.durationMs / 1000).toFixed(1);
  // Over the whole list: two findings of one check on one page may sit in two severity groups.
  const lines = distinguishingLines(result.findings);
  return (
    <Stack gap="6">
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
        <Stat.Root borderWidth="1px" borderRadius="l2" p="4">
          <Stat.Label>Overall score</Stat.Label>
          <HStack gap="3">
            <Stat.ValueText data-testid="scan-score">
              {result.score}
              <Stat.ValueUnit>/100</Stat.ValueUnit>
            </Stat.ValueText>
            <GradeBadge grade={result.grade} size="lg" label="Overall grade" data-testid="scan-grade" />
          </HStack>
          <Stat.HelpText>
            {plural(result.pages.length, 'page')} scanned in {seconds} s
          </Stat.HelpText>
        </Stat.Root>
        <Stat.Root borderWidth="1px" borderRadius="l2" p="4">
          <Stat.Label>Security headers</Stat.Label>
          <HStack gap="3">
            <Stat.ValueText>
              {result.headers.score}
              <Stat.ValueUnit>/100</Stat.ValueUnit>
            </Stat.ValueText>
            <GradeBadge grade={result.headers.grade} size="lg" label="Header grade" data-testid="header-grade" />
          </HStack>
          <Stat.HelpText>HTTP Observatory scoring of the start page</Stat.HelpText>
        </Stat.Root>
      </SimpleGrid>

      <Wrap gap="2" aria-label="Findings by severity" data-testid="severity-counts" alignItems="center">
        <Text fontWeight="semibold" me="1" data-testid="finding-tally">
          {tallyText(findingTally(result.counts))}
        </Text>
        {SEVERITIES.map((severity) => (
          <Badge key={severity} colorPalette={severityPalette(severity)} variant="subtle" size="lg">
            {SEVERITY_LABELS[severity]}: {result.counts[severity]}
          </Badge>
        ))}
        <Badge colorPalette={severityPalette('secure')} variant="subtle" size="lg">
          Passed checks: {result.passed.length}
        </Badge>
      </Wrap>

      {result.coverage && <ScanCoverageSummary coverage={result.coverage} />}

      {result.findings.length === 0 ? (
        coverageIncomplete(result.coverage) ? (
          <Alert.Root status="info" data-testid="no-findings-incomplete">
            <Alert.Indicator />
            <Alert.Title>No security holes found in what could be checked, but not everything could be checked (see above).</Alert.Title>
          </Alert.Root>
        ) : (
          <Alert.Root status="success">
            <Alert.Indicator />
            <Alert.Title>No security holes found on the scanned pages.</Alert.Title>
          </Alert.Root>
        )
      ) : (
        SEVERITIES.map((severity) => {
          const findings = result.findings.filter((f) => f.severity === severity);
          if (findings.length === 0) return null;
          return (
            <FindingGroup
              key={severity}
              projectId={projectId}
              severity={severity}
              findings={findings}
              isNew={(f) => isRescan && newOnes.has(f.fingerprint)}
              lines={lines}
              promptOf={(f) => fixPrompt(result, f)}
            />
          );
        })
      )}

      {result.suppressed && result.suppressed.length > 0 && <SuppressedFindings projectId={projectId} suppressed={result.suppressed} />}

      {response.fixed.length > 0 && (
        <Stack gap="2" data-testid="fixed-findings">
          <Heading as="h3" size="sm">
            Fixed since last scan
          </Heading>
          <FindingList findings={response.fixed} struck />
        </Stack>
      )}

      {result.warnings.length > 0 && (
        <Text fontSize="xs" color="fg.muted">
          {plural(result.warnings.length, 'warning')} during the scan: {result.warnings.join('; ')}
        </Text>
      )}
    </Stack>
  );
}

function FindingGroup({
  projectId,
  severity,
  findings,
  isNew,
  promptOf,
  lines,
}: {
  projectId: string;
  severity: Severity;
  findings: Finding[];
  isNew: (f: Finding) => boolean;
  promptOf: (f: Finding) => string;
  /** What tells apart findings of one title and address (common/finding-rows.ts), by fingerprint. */
  lines: ReadonlyMap<string, string>;
}) {
  return (
    <Stack gap="2" as="section" aria-label={`${SEVERITY_LABELS[severity]} findings`} data-testid={`findings-${severity}`}>
      <HStack gap="2">
        <SeverityBadge severity={severity} />
        <Heading as="h3" size="sm">
          {plural(findings.length, 'finding')}
        </Heading>
      </HStack>
      <Accordion.Root multiple collapsible variant="enclosed" size="sm">
        {findings.map((finding) => (
          <Accordion.Item key={finding.fingerprint} value={finding.fingerprint} data-testid="finding">
            <Accordion.ItemTrigger cursor="pointer">
              <Stack gap="0.5" flex="1" minW="0" textAlign="start">
                <HStack gap="2" wrap="wrap">
                  <Text fontWeight="medium">{finding.title}</Text>
                  {isNew(finding) && (
                    <Badge colorPalette="brand" variant="solid" size="sm">
                      New
                    </Badge>
                  )}
                </HStack>
                <Text fontSize="xs" color="fg.muted" truncate>
                  {finding.url}
                </Text>
                {lines.has(finding.fingerprint) && (
                  <Text fontSize="sm" lineClamp="2" data-testid="finding-distinction">
                    {lines.get(finding.fingerprint)}
                  </Text>
                )}
              </Stack>
              <Accordion.ItemIndicator />
            </Accordion.ItemTrigger>
            <Accordion.ItemContent>
              <Accordion.ItemBody>
                <Stack gap="4">
                  <FindingBody finding={finding} />
                  <FindingActions projectId={projectId} finding={finding} prompt={() => promptOf(finding)} />
                </Stack>
              </Accordion.ItemBody>
            </Accordion.ItemContent>
          </Accordion.Item>
        ))}
      </Accordion.Root>
    </Stack>
  );
}

function Mono({ label, children }: { label: string; children: string }) {
  return (
    <Stack gap="1">
      <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
        {label}
      </Text>
      <Box as="pre" fontFamily="mono" fontSize="xs" bg="bg.muted" borderRadius="l2" p="3" whiteSpace="pre-wrap" wordBreak="break-all" maxH="64" overflow="auto">
        {children}
      </Box>
    </Stack>
  );
}

function FindingBody({ finding }: { finding: Finding }) {
  const { evidence } = finding;
  return (
    <Stack gap="4" fontSize="sm">
      <Text wordBreak="break-word">{finding.detail}</Text>
      <Text fontSize="xs" color="fg.muted" wordBreak="break-all">
        URL: {finding.url}
      </Text>
      {evidence.match && <Mono label="Match">{evidence.match}</Mono>}
      {evidence.request && <Mono label="Request">{evidence.request}</Mono>}
      {evidence.response && <Mono label="Response">{evidence.response}</Mono>}
      <Stack gap="1">
        <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
          Remediation
        </Text>
        <Text whiteSpace="pre-wrap">{finding.remediation}</Text>
      </Stack>
      <Wrap gap="2" fontSize="xs">
        {finding.cwe !== null && (
          <ExternalLink href={`https://cwe.mitre.org/data/definitions/${finding.cwe}.html`} color="brand.fg">
            CWE-{finding.cwe}
          </ExternalLink>
        )}
        <Badge variant="outline">{OWASP_2025[finding.owasp]}</Badge>
        <Badge variant="outline">Confidence: {finding.confidence}</Badge>
      </Wrap>
      {finding.references.length > 0 && (
        <Stack gap="1">
          <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
            References
          </Text>
          <List.Root gap="1" ps="4">
            {finding.references.map((ref) => (
              <List.Item key={ref}>
                <ExternalLink href={ref} color="brand.fg" display="inline" wordBreak="break-all">
                  {ref}
                </ExternalLink>
              </List.Item>
            ))}
          </List.Root>
        </Stack>
      )}
    </Stack>
  );
}

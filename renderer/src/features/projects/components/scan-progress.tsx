import { HStack, Progress, Text } from '@chakra-ui/react';
import type { ScanProgress } from '@common/scan';
import { plural } from '@common/plural';

const PHASES: Record<ScanProgress['phase'], string> = {
  crawl: 'Crawling pages',
  render: 'Rendering pages',
  probe: 'Probing',
  check: 'Running checks',
  done: 'Finishing',
};

/** Fraction done: pages first (crawl and render), then checks. */
function percent(progress: ScanProgress): number {
  const pages = progress.pagesTotal > 0 ? progress.pagesDone / progress.pagesTotal : 0;
  const checks = progress.checksTotal > 0 ? progress.checksRun / progress.checksTotal : 0;
  if (progress.phase === 'done') return 100;
  return Math.round(Math.min(1, pages * 0.5 + checks * 0.5) * 100);
}

/** A running scan's bar: phase, pages done/total, checks run and findings so far (from the live stream). */
export function ScanProgressBar({ progress, state }: { progress: ScanProgress | null | undefined; state: 'queued' | 'running' }) {
  if (!progress) {
    return (
      <Progress.Root value={null} size="sm" colorPalette="brand" aria-label="Scan progress" data-testid="scan-progress">
        <HStack justify="space-between" mb="1">
          <Progress.Label fontSize="sm">{state === 'queued' ? 'Waiting for a scan worker...' : 'Starting scan...'}</Progress.Label>
        </HStack>
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
    );
  }
  const findings = progress.findings;
  return (
    <Progress.Root value={percent(progress)} size="sm" colorPalette="brand" aria-label="Scan progress" data-testid="scan-progress">
      <HStack justify="space-between" mb="1" gap="3" wrap="wrap">
        <Progress.Label fontSize="sm">{progress.message ?? PHASES[progress.phase]}</Progress.Label>
        <Progress.ValueText fontSize="sm" />
      </HStack>
      <Progress.Track>
        <Progress.Range />
      </Progress.Track>
      <Text fontSize="xs" color="fg.muted" mt="1" data-testid="scan-progress-detail">
        Pages {progress.pagesDone}/{progress.pagesTotal} · Checks {progress.checksRun}/{progress.checksTotal} · {plural(findings, 'finding')} so far
      </Text>
    </Progress.Root>
  );
}

import { skipToken, useQuery } from '@tanstack/react-query';
import type { LiveScanProgress } from '../../../api/live';
import { queryKeys } from '../../../api/query-keys';

/** The running scan's progress as the live stream last reported it (never fetched: only the stream writes it). */
export function useScanProgress(projectId: string): LiveScanProgress | undefined {
  const { data } = useQuery<LiveScanProgress>({ queryKey: queryKeys.live.scanProgress(projectId), queryFn: skipToken, staleTime: Infinity });
  return data;
}

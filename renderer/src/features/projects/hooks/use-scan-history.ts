import { scanHistoryItemSchema, type ScanHistoryItem } from '@common/scan-history';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';
import { historyTexts } from '../history-texts';

const historyListSchema = z.array(scanHistoryItemSchema);
const NO_SCANS: ScanHistoryItem[] = [];
const SCANS_PER_PAGE = 20;

/** GET /project/{id}/scans, a page at a time, newest first; the live stream refreshes it when a scan changes state. */
export function useScanHistory(id: string) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.projects.scans(id),
    queryFn: ({ pageParam, signal }) =>
      fetchPage(api, `/project/${encodeURIComponent(id)}/scans?limit=${SCANS_PER_PAGE}`, pageParam, historyListSchema, { fallbackError: historyTexts.loadFailed, signal }),
    ...pageParams,
  });
  const scans = joinPages(query.data);
  return { ...query, scans: query.data ? scans : NO_SCANS };
}

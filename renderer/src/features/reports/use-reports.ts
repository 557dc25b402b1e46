import { reportLinkSchema, reportStatusSchema, type ReportLink, type ReportStatus, type ReportType } from '@common/projects';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { useApi } from '../../app/services';
import { ApiError } from '../../api/http';
import { useLiveMessages } from '../../api/live';
import { fetchPage, joinPages, pageParams } from '../../api/pages';
import { queryKeys } from '../../api/query-keys';
import { isReportFinished } from './report-links';

/** How often a report being generated is polled (the live stream usually answers first). */
export const REPORT_POLL_MS = 1_000;

/** Parses an answer with its schema; a body of another shape fails like an error response. */
function parse<T>(schema: z.ZodType<T>, body: unknown, message: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(200, message, body);
  return parsed.data;
}

/**
 * GET /report_links/recent, a page at a time (`fetchNextPage`); `reports` is every loaded page joined. A
 * failure toasts 'Failed to load recent reports' / 'Please try again later' (once per failure, not per retry).
 */
export function useRecentReports() {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.reports.recent,
    queryFn: ({ pageParam, signal }) =>
      fetchPage<ReportLink>(api, '/report_links/recent', pageParam, z.array(reportLinkSchema), { fallbackError: 'Failed to load recent reports', signal }),
    ...pageParams,
    meta: { errorToast: ['Failed to load recent reports', 'Please try again later'] },
  });
  return { ...query, reports: joinPages(query.data) };
}

/** POST /reports: starts generating a report; its first status goes straight into the status query. */
export function useGenerateReport() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { project_id: string; type: ReportType }): Promise<ReportStatus> => {
      const answer = await api.request<unknown>('POST', '/reports', { body, fallbackError: 'Failed to generate report' });
      return parse(reportStatusSchema, answer, 'Failed to generate report');
    },
    onSuccess: (report) => {
      queryClient.setQueryData(queryKeys.reports.status(report.id), report);
    },
    meta: { errorToast: (error) => ['Failed to generate report', error instanceof Error ? error.message : undefined] },
  });
}

/** GET /reports/{id}, every second until the report is completed or failed; 'report.state' messages update it at once. */
export function useReportStatus(id: string | null) {
  const api = useApi();
  const queryClient = useQueryClient();
  useLiveMessages((message) => {
    if (message.type !== 'report.state' || message.report.id !== id) return;
    const key = queryKeys.reports.status(message.report.id);
    // A late message must not take a finished report back to running.
    if (isReportFinished(queryClient.getQueryData<ReportStatus>(key)) && !isReportFinished(message.report)) return;
    queryClient.setQueryData(key, message.report);
  });
  const query = useQuery({
    queryKey: queryKeys.reports.status(id ?? ''),
    enabled: id !== null,
    queryFn: async ({ signal }): Promise<ReportStatus> => {
      const body = await api.request<unknown>('GET', `/reports/${encodeURIComponent(id ?? '')}`, {
        fallbackError: 'Failed to load report',
        signal,
      });
      return parse(reportStatusSchema, body, 'Failed to load report');
    },
    staleTime: 0,
    refetchInterval: (q) => (isReportFinished(q.state.data) ? false : REPORT_POLL_MS),
  });
  const finished = query.data?.state === 'completed';
  useEffect(() => {
    // A new report belongs at the top of Recent Reports.
    if (finished) void queryClient.invalidateQueries({ queryKey: queryKeys.reports.recent });
  }, [finished, queryClient]);
  return query;
}

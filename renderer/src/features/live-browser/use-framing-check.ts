import { FRAMING_CHECK_PATH, framingCheckSchema } from '@common/live-browser';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../app/services';
import { queryKeys } from '../../api/query-keys';
import { texts } from './texts';

/**
 * GET /v2/live-browser/framing?url=...: whether the site lets this page show it in a frame (the page cannot read
 * another site's headers, the server can). Public, so no token; not retried (a refusal or an unreachable site
 * answers the same the second time), and kept a minute.
 */
export function useFramingCheck(url: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.liveBrowser.framing(url ?? ''),
    queryFn: async ({ signal }) =>
      framingCheckSchema.parse(await api.request('GET', `${FRAMING_CHECK_PATH}?url=${encodeURIComponent(url!)}`, { auth: false, fallbackError: texts.checkFailed, signal })),
    enabled: url !== undefined,
    retry: false,
    staleTime: 60_000,
  });
}

import { scenarioSchema } from '@common/scenarios';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';
import { scenarioCallError } from '../scenario-format';
import { CALL_NAMES, texts } from '../texts';

const scenarioListSchema = z.array(scenarioSchema);

/**
 * GET /scenarios, a page at a time; `scenarios` is every loaded page joined. A failure toasts
 * 'Failed to load test scenarios' with 'Failed to fetch scenarios: {status} - {text}'.
 */
export function useScenarios() {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.scenarios.list(),
    queryFn: ({ pageParam, signal }) => fetchPage(api, '/scenarios', pageParam, scenarioListSchema, { fallbackError: 'Failed to fetch scenarios', signal }),
    ...pageParams,
    // The spec's 'Authentication required' is this toast's text for a 401.
    meta: { errorToast: (error) => [texts.loadFailed, scenarioCallError(CALL_NAMES.list, error)], toastUnauthorized: true },
  });
  return { ...query, scenarios: joinPages(query.data) };
}

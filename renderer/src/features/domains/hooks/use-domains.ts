import { domainSchema } from '@common/domains';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';

const domainListSchema = z.array(domainSchema);

/** GET /domains, a page at a time; 'Failed to load domains' when the server gives no reason. */
export function useDomains() {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.domains.list(),
    queryFn: ({ pageParam, signal }) => fetchPage(api, '/domains', pageParam, domainListSchema, { fallbackError: texts.loadFailed, signal }),
    ...pageParams,
  });
  return { ...query, domains: joinPages(query.data) };
}

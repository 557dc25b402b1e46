import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { isOpenApiDocument, listOperations } from '../openapi';
import { texts } from '../texts';

/** GET /v1/openapi.json (public, no token): the document and its operations, read once per session. */
export function useOpenApi() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.apiKeys.openapi(),
    queryFn: async ({ signal }) => {
      const doc = await api.request<unknown>('GET', '/v1/openapi.json', { auth: false, fallbackError: texts.docsLoadFailed, signal });
      if (!isOpenApiDocument(doc)) throw new ApiError(200, texts.docsLoadFailed, doc);
      return { doc, operations: listOperations(doc) };
    },
    staleTime: Infinity,
  });
}

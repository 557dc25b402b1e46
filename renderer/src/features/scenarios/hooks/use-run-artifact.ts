import { useQuery } from '@tanstack/react-query';
import { useServices, useSupabase } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';

/** GET of a run's screenshot or trace: binary, so fetched here with the bearer token rather than as JSON. */
export function useFetchArtifact() {
  const { serverOrigin, api } = useServices();
  const supabase = useSupabase();
  return async (path: string, signal?: AbortSignal): Promise<Blob> => {
    const { data } = await supabase.auth.getSession();
    const token = data.session?.access_token;
    if (!token) throw new ApiError(401, 'Authentication required');
    const headers = { authorization: `Bearer ${token}`, ...(await api.workspaceHeaders()) };
    const response = await fetch(`${serverOrigin}${path}`, { headers, signal });
    if (!response.ok) throw new ApiError(response.status, response.statusText || 'Failed to fetch the file');
    return response.blob();
  };
}

/**
 * A run's screenshot as a data: URL for an <img>: the desktop app's CSP allows data: images but not blob: ones.
 */
export function useScreenshotUrl(path: string | null) {
  const fetchArtifact = useFetchArtifact();
  const query = useQuery({
    queryKey: queryKeys.scenarios.screenshot(path ?? ''),
    queryFn: async ({ signal }) => blobToDataUrl(await fetchArtifact(path ?? '', signal)),
    enabled: path !== null,
    staleTime: Infinity,
  });
  return { url: query.data ?? null, isLoading: query.isLoading, isError: query.isError };
}

function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('Could not read the screenshot')));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the screenshot'));
    reader.readAsDataURL(blob);
  });
}

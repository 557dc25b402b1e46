import { useMutation } from '@tanstack/react-query';
import { useServices, useSupabase } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { saveBlob } from '../../../ui/save-blob';
import { texts } from '../texts';

/** The name of the downloaded file: vibeeval-data-<date>.json, as the server names it. */
export const dataFileName = (now = new Date()) => `vibeeval-data-${now.toISOString().slice(0, 10)}.json`;

/** GET /account/export, saved as vibeeval-data-<date>.json; a failure toasts. */
export function useDownloadData() {
  const { serverOrigin } = useServices();
  const supabase = useSupabase();
  return useMutation({
    mutationFn: async () => {
      const { data } = await supabase.auth.getSession();
      const token = data.session?.access_token;
      if (!token) throw new ApiError(401, 'Authentication required');
      const response = await fetch(`${serverOrigin}/account/export`, { headers: { authorization: `Bearer ${token}` } });
      if (!response.ok) throw new ApiError(response.status, texts.downloadFailed);
      saveBlob(await response.blob(), dataFileName());
    },
    meta: { errorToast: [texts.downloadFailed] },
  });
}

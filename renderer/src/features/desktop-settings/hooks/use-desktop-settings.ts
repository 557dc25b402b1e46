import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ServerChoice } from '@common/desktop-settings';
import { queryKeys } from '../../../api/query-keys';
import type { DesktopSettingsApi } from '../../../bridge';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** The desktop app's settings, read through the bridge. */
export function useDesktopSettings(api: DesktopSettingsApi) {
  return useQuery({ queryKey: queryKeys.desktop.settings, queryFn: () => api.get(), staleTime: Infinity });
}

/** Turns desktop notifications on or off; toasts a failure; the settings are read again either way. */
export function useSetDesktopNotifications(api: DesktopSettingsApi) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => api.setNotifications(enabled),
    meta: { errorToast: [texts.saveFailed] },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.desktop.settings }),
  });
}

/**
 * Saves the server to use at the next start. A refused team server is an answer, not an error: its message
 * shows beside the field (the caller reads `data`); only a failed call toasts.
 */
export function useSetServer(api: DesktopSettingsApi) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choice: ServerChoice) => api.setServer(choice),
    onSuccess: (result) => {
      if (result.ok) notify.success(texts.saved, texts.restartNotice);
    },
    meta: { errorToast: [texts.saveFailed] },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.desktop.settings }),
  });
}

/** Restarts the app (the new server applies at start). */
export function useRelaunch(api: DesktopSettingsApi) {
  return useMutation({ mutationFn: () => api.relaunch(), meta: { errorToast: [texts.restartFailed] } });
}

import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { TRIAGE_UI } from '../texts';

/** GET /project/{id}/baseline, saved as vibeeval-baseline.json (the file `vibeeval scan --baseline` reads). */
export function useExportBaseline(projectId: string) {
  const api = useApi();
  return useMutation({
    mutationFn: async () => {
      const entries = await api.request<unknown>('GET', `/project/${encodeURIComponent(projectId)}/baseline`, { fallbackError: TRIAGE_UI.exportFailed });
      const url = URL.createObjectURL(new Blob([`${JSON.stringify(entries, null, 2)}\n`], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = 'vibeeval-baseline.json';
      link.click();
      // After the click has started the download.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    },
    meta: { errorToast: (error) => [TRIAGE_UI.exportFailed, error instanceof Error ? error.message : undefined] },
  });
}

import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useServices } from '../../app/services';
import { notify } from '../../ui/toaster';
import { useOpenReport } from './recent-reports';
import { absoluteReportUrl, previewUrlFor } from './report-links';
import { useReportStatus } from './use-reports';

/** The query parameter a report link (vibeeval://report/<id>) opens the reports page with. */
export const OPEN_REPORT_PARAM = 'open';
const REPORT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * /dashboard/reports?open=<id>: opens that report's preview once it is ready (a report still being made is
 * waited for), or says why it cannot be opened; the parameter is then dropped so a reload does not open it again.
 * The desktop app opens its report window; a browser, which blocks windows nobody clicked for, shows the preview
 * in this tab.
 */
export function useOpenReportLink(): void {
  const [params, setParams] = useSearchParams();
  const raw = params.get(OPEN_REPORT_PARAM);
  const id = raw && REPORT_ID.test(raw) ? raw : null;
  const status = useReportStatus(id);
  const openReport = useOpenReport();
  const { bridge, serverOrigin } = useServices();
  const show = (reportUrl: string) => {
    const signed = absoluteReportUrl(serverOrigin, reportUrl);
    if (bridge.kind === 'desktop' || !signed) void openReport(reportUrl);
    else window.location.assign(previewUrlFor(serverOrigin, signed));
  };
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (raw === null || handled.current === raw) return;
    const done = (action?: () => void) => {
      handled.current = raw;
      action?.();
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.delete(OPEN_REPORT_PARAM);
          return next;
        },
        { replace: true },
      );
    };
    const report = status.data;
    if (id === null || status.isError) done(() => notify.error('Could not open the report', 'The report was not found.'));
    else if (report?.state === 'failed') done(() => notify.error('Could not open the report', 'This report could not be generated.'));
    else if (report?.state === 'completed' && report.report_url) done(() => show(report.report_url!));
    // `show` is made anew each render from stable parts; the report's state is what this waits on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [raw, id, status.data, status.isError, setParams]);
}

import type { ScanResult } from '../../common/scan';

/** The scan result as pretty-printed JSON (the scanResultSchema shape, unchanged). */
export function renderJson(result: ScanResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

import type { ScanResult } from '../../common/scan';
import { changesJson, type ReportChanges } from './changes';

/** The scan result as pretty-printed JSON (the scanResultSchema shape), with `sincePrevious` when the changes are known. */
export function renderJson(result: ScanResult, changes?: ReportChanges): string {
  return `${JSON.stringify(changes ? { ...result, sincePrevious: changesJson(changes) } : result, null, 2)}\n`;
}

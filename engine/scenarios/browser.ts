import { findChromium, launchPolicedChromium } from '../browser';
import type { AddressPolicy } from '../retrieval/address-policy';
import { prepareSpareContext } from './context';
import type { ScenarioBrowser } from './types';

/**
 * One Chromium behind the address policy's proxy, shared by the runs of one worker, with one blank context kept
 * ready for the next run (engine/scenarios/context.ts); close() stops both.
 */
export async function openScenarioBrowser(options: { chromiumPath?: string | null; policy: AddressPolicy }): Promise<ScenarioBrowser> {
  let path = options.chromiumPath ?? null;
  if (!path) {
    const found = findChromium();
    if (found.path === null) throw new Error(`Browser scenarios need Chromium: ${found.reason}`);
    path = found.path;
  }
  const { browser, proxy } = await launchPolicedChromium(path, options.policy);
  // The first run starts on a page opened while the job was being claimed; each run opens the next one's.
  prepareSpareContext(browser);
  return {
    browser,
    close: async () => {
      await browser.close().catch(() => undefined);
      await proxy.close();
    },
  };
}

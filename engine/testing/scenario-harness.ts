// What the scenario tests and the scenarios benchmark share: the fixture site and one scenario browser beside it.
import { openScenarioBrowser, type ScenarioBrowser } from '../scenarios/index';
import { startScenarioSite, type ScenarioSite } from './scenario-site';

export interface ScenarioHarness {
  site: ScenarioSite;
  browser: ScenarioBrowser;
  close: () => Promise<void>;
}

/** Starts the fixture site and a scenario browser allowed to reach it (loopback); close() stops both. */
export async function startScenarioHarness(chromiumPath?: string | null): Promise<ScenarioHarness> {
  const site = await startScenarioSite();
  try {
    const browser = await openScenarioBrowser({ chromiumPath: chromiumPath ?? undefined, policy: { allowPrivate: true } });
    return {
      site,
      browser,
      close: async () => {
        await browser.close();
        await site.close();
      },
    };
  } catch (error) {
    await site.close();
    throw error;
  }
}

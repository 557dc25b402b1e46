// The engine's scenario interface: the server uses only what this file exports.
import { proposeWithLlm } from './llm';
import { proposeFromSite } from './propose';
import type { ProposalOptions, ProposedScenario } from './types';

export type { Credentials, LlmSettings, ProposalOptions, ProposedScenario, RunEvent, ScenarioBrowser, ScenarioRunResult } from './types';

export { openScenarioBrowser } from './browser';
export { scenarioCode } from './code';
export { parseCredentials } from './credentials';
export { ProposalError } from './errors';
export { runScenario } from './run';

/**
 * Scenarios for the website, nothing saved: from the site alone (its pages, main links, sign-in and forms, each
 * tried in the browser), or, with an AI service, from the model's steps after they validated and passed a dry run.
 */
export async function proposeScenarios(options: ProposalOptions): Promise<ProposedScenario[]> {
  const llm = options.llm;
  return llm ? proposeWithLlm({ ...options, llm }) : proposeFromSite(options);
}

// The engine's scenario interface: the server uses only what this file exports.
import type { Browser } from 'playwright-core';
import type { Step } from '../../common/scenarios';
import type { AddressPolicy } from '../retrieval/address-policy';
import type { Credentials } from './types';

export type { Credentials, RunEvent, ScenarioRunOptions, ScenarioRunResult } from './types';

/** An OpenAI-compatible chat completions endpoint (OpenAI, OpenRouter, Ollama, LM Studio). */
export interface LlmSettings {
  baseUrl: string;
  apiKey: string | null;
  model: string;
}

/** One Chromium behind the address policy's proxy, shared by the runs of one worker. */
export interface ScenarioBrowser {
  browser: Browser;
  close(): Promise<void>;
}

export interface ProposalOptions {
  website: string;
  /** The project's test instructions (free text) and credentials. */
  instructions: string | null;
  credentials: Credentials | null;
  browser: Browser;
  policy: AddressPolicy;
  rateLimit: number;
  /** Absent: proposals from the site alone, no AI service. */
  llm: LlmSettings | null;
  signal?: AbortSignal;
}

export interface ProposedScenario {
  website: string;
  steps: Step[];
  name: string;
}

/** A proposal could not be made; `message` is for the user (e.g. the AI service's output did not validate twice). */
export class ProposalError extends Error {}

const notBuilt = (what: string): never => {
  throw new Error(`${what} is not built yet`);
};

export { openScenarioBrowser } from './browser';
export { runScenario } from './run';
export { parseCredentials } from './credentials';

export { scenarioCode } from './code';

export async function proposeScenarios(options: ProposalOptions): Promise<ProposedScenario[]> {
  return notBuilt(`proposeScenarios(${options.website})`);
}

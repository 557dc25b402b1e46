// The engine's scenario interface: the server uses only what this file exports.
import type { Browser } from 'playwright-core';
import type { Step } from '../../common/scenarios';
import type { AddressPolicy } from '../retrieval/address-policy';
import { proposeWithLlm } from './llm';
import { proposeFromSite } from './propose';
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

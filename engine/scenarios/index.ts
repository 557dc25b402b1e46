// The engine's scenario interface: the server uses only what this file exports.
import type { Browser } from 'playwright-core';
import type { Step } from '../../common/scenarios';
import type { AddressPolicy } from '../retrieval/address-policy';
import type { Credentials, ScenarioRunOptions, ScenarioRunResult } from './types';

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

export async function openScenarioBrowser(options: { chromiumPath?: string | null; policy: AddressPolicy }): Promise<ScenarioBrowser> {
  return notBuilt(`openScenarioBrowser(${options.policy.allowPrivate})`);
}

export async function runScenario(options: ScenarioRunOptions): Promise<ScenarioRunResult> {
  return notBuilt(`runScenario(${options.website})`);
}

/** A complete @playwright/test spec file for the steps, baseURL the website, credentials from the environment. */
export function scenarioCode(scenario: { website: string; steps: Step[]; name: string }): string {
  return notBuilt(`scenarioCode(${scenario.name})`);
}

/** Test credentials from a project's secret instructions ('user@example.com / password', 'email: ...' lines). */
export function parseCredentials(secretInstruction: string | null): Credentials | null {
  return notBuilt(`parseCredentials(${secretInstruction?.length ?? 0})`);
}

export async function proposeScenarios(options: ProposalOptions): Promise<ProposedScenario[]> {
  return notBuilt(`proposeScenarios(${options.website})`);
}

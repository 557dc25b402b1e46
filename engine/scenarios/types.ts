import type { Browser } from 'playwright-core';
import type { Step, StepResult } from '../../common/scenarios';
import type { AddressPolicy } from '../retrieval/address-policy';

/** The project's test credentials, read from its secret instructions (see credentials.ts). */
export interface Credentials {
  username: string;
  password: string;
}

/** What a run tells as it goes: the spec's event kinds. Values typed into password fields never appear. */
export type RunEvent =
  | { kind: 'page_view'; url: string }
  | { kind: 'button_click'; url: string; step: number; description: string }
  | { kind: 'form_submit'; url: string; step: number; description: string }
  | { kind: 'api_call'; url: string; method: string; status: number | null }
  | { kind: 'error'; url: string; description: string };

export interface ScenarioRunOptions {
  /** The scenario's website: relative `goto` paths resolve against it. */
  website: string;
  steps: Step[];
  credentials: Credentials | null;
  /** A browser launched behind the address policy's proxy (`openScenarioBrowser`); each run gets a fresh context. */
  browser: Browser;
  policy: AddressPolicy;
  /** Requests per second to the website (the project's rate limit). */
  rateLimit: number;
  /** Record a Playwright trace (zip) of the run. */
  trace: boolean;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
}

export interface ScenarioRunResult {
  status: 'passed' | 'failed';
  durationMs: number;
  steps: StepResult[];
  failedStep: number | null;
  error: string | null;
  /** PNG at the failure, or at the end of a passed run. */
  screenshot: Buffer | null;
  /** Playwright trace zip (`npx playwright show-trace`). */
  trace: Buffer | null;
  consoleErrors: string[];
  failedRequests: { url: string; method: string; failure: string }[];
}

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

import { takeFirstAnswer } from './first-data';

/** What `GET /app-config` returns: where auth lives (our own server, or a hosted Supabase project). */
export interface AppConfig {
  supabaseUrl: string;
  supabaseAnonKey: string;
  version: string;
  mode: 'local' | 'supabase';
}

function isAppConfig(value: unknown): value is AppConfig {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.supabaseUrl === 'string' &&
    URL.canParse(v.supabaseUrl) &&
    typeof v.supabaseAnonKey === 'string' &&
    typeof v.version === 'string' &&
    (v.mode === 'local' || v.mode === 'supabase')
  );
}

/** Fetches the app config from the server; throws a readable message when the server is unreachable or odd. */
export async function fetchAppConfig(serverOrigin: string, signal?: AbortSignal): Promise<AppConfig> {
  const url = `${serverOrigin}/app-config`;
  let response: Response;
  try {
    // A signed-in dashboard page's start script asked for it already (first-data.ts); a failed answer is asked again.
    const early = await takeFirstAnswer(url, undefined);
    response = early?.ok === true ? early : await fetch(url, { headers: { accept: 'application/json' }, signal });
  } catch {
    throw new Error(`The vibeeval server at ${serverOrigin} could not be reached.`);
  }
  if (!response.ok) throw new Error(`The vibeeval server answered ${response.status} ${response.statusText} for /app-config.`);
  const body: unknown = await response.json().catch(() => undefined);
  if (!isAppConfig(body)) throw new Error('The vibeeval server sent an app configuration this version cannot read.');
  return body;
}

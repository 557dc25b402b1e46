import { WORKSPACE_HEADER, WORKSPACE_TEXTS } from '@common/workspace-constants';
import { takeFirstAnswer } from './first-data';

/** An error from the product API: the HTTP status and the message the server gave (its `detail`) or ours. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  body?: unknown;
  /** GET /plans is the one call made without the bearer token. */
  auth?: boolean;
  /** Message thrown when the server gives no `detail`, e.g. 'Failed to fetch projects'. */
  fallbackError?: string;
  signal?: AbortSignal;
  /** Called with the response headers of a successful answer (lists read their next page's cursor there). */
  onHeaders?: (headers: Headers) => void;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The product API client: JSON in and out, the user's bearer token on every call unless `auth: false`. */
export interface ApiClient {
  readonly origin: string;
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  /** The workspace header for calls made outside `request` (binary downloads); empty before anyone signs in. */
  workspaceHeaders(): Promise<Record<string, string>>;
}

/** Which workspace the signed-in caller acts in, and what to do when the server no longer knows them there. */
export interface WorkspaceBinding {
  /** The current workspace's id, or null when nobody is signed in. */
  current(): Promise<string | null>;
  /** The server answered 'Workspace not found' for a call made in `workspaceId`. */
  gone(workspaceId: string): void;
}

/** The auth server's routes (supabase-js calls them itself): they act for the user, never in a workspace. */
const AUTH_PREFIX = '/auth/v1';

function detailOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const detail = (body as { detail?: unknown }).detail;
  if (typeof detail === 'string') return detail;
  // FastAPI-style validation errors: a list of { msg }.
  if (Array.isArray(detail)) {
    const first: unknown = detail[0];
    if (typeof first === 'object' && first !== null && typeof (first as { msg?: unknown }).msg === 'string') {
      return (first as { msg: string }).msg;
    }
  }
  return undefined;
}

export function createApiClient(origin: string, accessToken: () => Promise<string | null>, workspace?: WorkspaceBinding): ApiClient {
  const workspaceHeaders = async (): Promise<Record<string, string>> => {
    const id = await workspace?.current();
    return id ? { [WORKSPACE_HEADER]: id } : {};
  };
  const client: ApiClient = {
    origin,
    workspaceHeaders,
    async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
      return send<T>(method, path, options, false);
    },
  };

  async function send<T>(method: HttpMethod, path: string, options: RequestOptions, retried: boolean): Promise<T> {
    const { body, auth = true, fallbackError = 'Request failed', signal, onHeaders } = options;
    // A JSON content type only with a body: Fastify refuses an empty body declared as JSON.
    const headers: Record<string, string> = body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' };
    if (auth) {
      const token = await accessToken();
      if (!token) throw new ApiError(401, 'Authentication required');
      headers.authorization = `Bearer ${token}`;
      // Product calls act in the current workspace; public calls (auth: false) and the auth server's do not.
      if (!path.startsWith(AUTH_PREFIX)) Object.assign(headers, await workspaceHeaders());
    }
    // A read the page's start script already asked for with the same session and workspace (first-data.ts); a
    // failed or refused one is asked again, so its error is handled as any other.
    const early = method === 'GET' && auth && !retried ? await takeFirstAnswer(`${origin}${path}`, headers[WORKSPACE_HEADER]) : null;
    const response =
      early?.ok === true
        ? early
        : await fetch(`${origin}${path}`, {
            method,
            headers,
            body: body === undefined ? undefined : JSON.stringify(body),
            signal,
          });
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (!response.ok) {
      const detail = detailOf(parsed);
      const sentWorkspace = headers[WORKSPACE_HEADER];
      // A member removed while away: the stored workspace is no longer theirs (the app falls back to personal).
      if (response.status === 404 && detail === WORKSPACE_TEXTS.notFound && sentWorkspace && workspace) {
        workspace.gone(sentWorkspace);
        // A read is asked again where the caller now is, so the screen shows no error on its way there; a
        // write is not repeated elsewhere.
        const now = await workspace.current();
        if (method === 'GET' && !retried && now && now !== sentWorkspace) return send<T>(method, path, options, true);
      }
      throw new ApiError(response.status, detail ?? fallbackError, parsed);
    }
    onHeaders?.(response.headers);
    return parsed as T;
  }

  return client;
}

/**
 * The calls the spec sends without a body carry `{}`: the API client always sets content-type
 * application/json, and Fastify rejects an empty body with that type (FST_ERR_CTP_EMPTY_JSON_BODY).
 */
export const NO_BODY = {};

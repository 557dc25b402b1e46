import { createContext, useContext, type ReactNode } from 'react';
import type { AppConfig } from '../api/app-config';
import type { ApiClient } from '../api/http';
import type { WorkspaceStore } from '../api/workspace-store';
import type { Bridge } from '../bridge';
import type { AuthClient, SupabaseClient } from './auth-client';
import type { EntryLocation } from './entry-location';

/** Everything the app gets at boot, before any page renders. */
export interface Services {
  bridge: Bridge;
  config: AppConfig;
  /** Where the API, auth and app config live. */
  serverOrigin: string;
  /**
   * The origin for links that leave the app and come back (reset mail, Google sign-in): the page's own origin
   * on the web; the server's in the desktop app, since those links open in the system browser.
   */
  publicOrigin: string;
  /** The sign-in client (supabase-js's auth), loaded on first need (see auth-client.ts). */
  auth: AuthClient;
  api: ApiClient;
  /** The workspace the API calls act in (see features/workspaces/workspace-context.tsx). */
  workspace: WorkspaceStore;
  entry: EntryLocation;
}

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ value, children }: { value: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={value}>{children}</ServicesContext.Provider>;
}

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices must be used inside <ServicesProvider>');
  return services;
}

/**
 * The supabase-js client, for pages that sign in or need a session: their routes load it before they render
 * (see router.tsx), so it is there by the time this runs.
 */
export function useSupabase(): SupabaseClient {
  const client = useServices().auth.current;
  if (!client) throw new Error('The sign-in client is not loaded: load it in the route (services.auth.load()) first');
  return client;
}
export const useApi = () => useServices().api;

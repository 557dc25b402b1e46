import { GOOGLE_NOT_CONFIGURED } from '@common/auth';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { restoreLastWorkspace } from '../../../api/last-workspace';
import { queryKeys } from '../../../api/query-keys';
import { useServices, useSupabase } from '../../../app/services';
import type { Bridge } from '../../../bridge';
import { notify } from '../../../ui/toaster';

/** How Google sign-in went from the page's point of view: it left for Google, it runs in the system browser, or it failed. */
export type GoogleSignInStart = { outcome: 'leaving' | 'in-browser' } | { outcome: 'failed'; message: string };

/** Whether the auth server offers Google (GET /auth/v1/settings, `external.google`); kept a minute. */
function useGoogleAvailability() {
  const { config } = useServices();
  const queryClient = useQueryClient();
  return () =>
    queryClient.fetchQuery({
      queryKey: queryKeys.authSettings,
      staleTime: 60_000,
      queryFn: async ({ signal }) => {
        const response = await fetch(`${config.supabaseUrl.replace(/\/+$/, '')}/auth/v1/settings`, {
          headers: { apikey: config.supabaseAnonKey },
          signal,
        });
        if (!response.ok) throw new Error(`The sign-in server answered ${response.status}.`);
        const body = (await response.json()) as { external?: { google?: unknown } };
        return body.external?.google === true;
      },
    });
}

/**
 * Starts Google sign-in. Our own server says first whether it has a Google client (without one nothing is
 * started). The desktop app runs the flow in the system browser through main, in every mode; on the web
 * supabase-js leaves the page and the provider returns to /dashboard.
 */
export function useGoogleSignIn() {
  const supabase = useSupabase();
  const { publicOrigin, config, bridge } = useServices();
  const googleAvailable = useGoogleAvailability();
  return async (): Promise<GoogleSignInStart> => {
    // A hosted Supabase project decides itself and answers through its own redirect.
    if (config.mode === 'local' && !(await googleAvailable())) return { outcome: 'failed', message: GOOGLE_NOT_CONFIGURED };
    if (bridge.kind === 'desktop') {
      // When it cannot start, main sends the reason as an auth event, which useDesktopGoogleResult shows.
      await bridge.startGoogleSignIn();
      return { outcome: 'in-browser' };
    }
    const { error } = await supabase.auth.signInWithOAuth({ provider: 'google', options: { redirectTo: `${publicOrigin}/dashboard` } });
    return error ? { outcome: 'failed', message: error.message } : { outcome: 'leaving' };
  };
}

/** What the result of a desktop sign-in acts on (supabase-js, the router, the page's toast). */
export interface GoogleResultTargets {
  setSession(tokens: { access_token: string; refresh_token: string }): Promise<{ error: { message: string } | null }>;
  navigate(path: string): void | Promise<void>;
  showError(message: string): void;
}

/**
 * The end of a desktop sign-in with Google (main's 'vibeeval:event:auth'): the session is adopted and the user
 * lands on /dashboard, or the error is shown. Returns the unsubscribe function; on the web nothing arrives.
 */
export function listenToGoogleResult(bridge: Bridge, targets: GoogleResultTargets): () => void {
  return bridge.subscribe('vibeeval:event:auth', (event) => {
    if (event.kind === 'error') {
      targets.showError(event.message);
      return;
    }
    targets
      .setSession({ access_token: event.accessToken, refresh_token: event.refreshToken })
      .then(async ({ error }) => {
        if (error) targets.showError(error.message);
        else await targets.navigate('/dashboard');
      })
      .catch(() => notify.unexpected());
  });
}

/** listenToGoogleResult for a page that offers Google, its errors under the page's own title. */
export function useDesktopGoogleResult(errorTitle: 'Error signing in with Google' | 'Error signing up with Google') {
  const { bridge, api, workspace } = useServices();
  const supabase = useSupabase();
  const navigate = useNavigate();
  useEffect(
    () =>
      listenToGoogleResult(bridge, {
        // Signed in: the dashboard opens in the workspace chosen last, as after a sign-in with a password.
        setSession: async (tokens) => {
          const answer = await supabase.auth.setSession(tokens);
          if (!answer.error && answer.data.user) await restoreLastWorkspace(api, workspace, answer.data.user.id);
          return answer;
        },
        navigate,
        showError: (message) => notify.error(errorTitle, message),
      }),
    [bridge, supabase, navigate, errorTitle, api, workspace],
  );
}

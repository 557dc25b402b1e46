import { GOOGLE_NOT_CONFIGURED } from '@common/auth';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { queryKeys } from '../../api/query-keys';
import { useServices, useSupabase } from '../../app/services';
import { notify } from '../../ui/toaster';

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

/**
 * The end of a desktop sign-in with Google (main's 'vibeeval:event:auth'): the session is adopted and the user
 * lands on /dashboard, or the error shows under the page's own title. Pages that offer Google subscribe.
 */
export function useDesktopGoogleResult(errorTitle: 'Error signing in with Google' | 'Error signing up with Google') {
  const { bridge } = useServices();
  const supabase = useSupabase();
  const navigate = useNavigate();
  useEffect(
    () =>
      bridge.subscribe('vibeeval:event:auth', (event) => {
        if (event.kind === 'error') {
          notify.error(errorTitle, event.message);
          return;
        }
        void supabase.auth
          .setSession({ access_token: event.accessToken, refresh_token: event.refreshToken })
          .then(async ({ error }) => {
            if (error) notify.error(errorTitle, error.message);
            else await navigate('/dashboard');
          })
          .catch(() => notify.unexpected());
      }),
    [bridge, supabase, navigate, errorTitle],
  );
}

import { useServices, useSupabase } from '../../app/services';

/** Starts Google sign-in; supabase-js leaves the page and the provider returns to /dashboard. */
export function useGoogleSignIn() {
  const supabase = useSupabase();
  const { publicOrigin } = useServices();
  return () =>
    supabase.auth.signInWithOAuth({ provider: 'google', options: { redirectTo: `${publicOrigin}/dashboard` } });
}

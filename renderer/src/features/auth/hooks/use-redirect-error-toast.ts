import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useServices } from '../../../app/services';
import { notify } from '../../../ui/toaster';
import { takeRedirectError } from '../redirect-error';
import { texts } from '../texts';

/**
 * OAuth and provider errors come back to /login as #error=...&error_description=... (supabase-js leaves them in
 * place): toasted once as 'Error signing in with Google', and the fragment cleared.
 */
export function useRedirectErrorToast() {
  const { entry } = useServices();
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const hash = location.hash || (entry.pathname === '/login' ? entry.hash : '');
    const description = takeRedirectError(hash);
    if (!description) return;
    // The only redirect that lands here with an error is the Google (OAuth) one.
    notify.error(texts.googleSignInFailed, description);
    if (location.hash) void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [entry, location.hash, location.pathname, location.search, navigate]);
}

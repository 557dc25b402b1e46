import { Navigate, Outlet } from 'react-router-dom';
import { useAuth } from '../../app/auth-context';

/**
 * Guards the dashboard: /login when signed out, else the page. While the session loads the page is shown as
 * its shell (layout, title, skeletons: its data needs the session's token, so it waits), as the prerendered
 * dashboard pages are, so the shell paints before the session and the data are known.
 */
export function RequireAuth() {
  const { user, loading } = useAuth();
  if (!loading && !user) return <Navigate to="/login" replace />;
  return <Outlet />;
}

import { Navigate, Outlet } from 'react-router-dom';
import { PageSpinner } from '../../ui/page-spinner';
import { useAuth } from './auth-context';

/** Guards the dashboard: a spinner while the session loads, /login when signed out, else the page. */
export function RequireAuth() {
  const { user, loading } = useAuth();
  if (loading) return <PageSpinner label="Checking your session..." />;
  if (!user) return <Navigate to="/login" replace />;
  return <Outlet />;
}

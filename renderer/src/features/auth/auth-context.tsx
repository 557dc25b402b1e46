import type { Session, User } from '@supabase/supabase-js';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useSupabase } from '../../app/services';

/** The signed-in user and session; `loading` is true until the first session check or auth change. */
export interface AuthState {
  user: User | null;
  session: Session | null;
  loading: boolean;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const supabase = useSupabase();
  const [state, setState] = useState<AuthState>({ user: null, session: null, loading: true });

  useEffect(() => {
    let current = true;
    const apply = (session: Session | null) => {
      if (current) setState({ session, user: session?.user ?? null, loading: false });
    };
    supabase.auth.getSession().then(
      ({ data }) => apply(data.session),
      () => apply(null),
    );
    // Never await supabase calls inside this callback: supabase-js holds its lock while notifying.
    const { data } = supabase.auth.onAuthStateChange((_event, session) => apply(session));
    return () => {
      current = false;
      data.subscription.unsubscribe();
    };
  }, [supabase]);

  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}

import type { Session, User } from '@supabase/auth-js';
import type { SupabaseClient } from './auth-client';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useServices } from './services';

/** The signed-in user and session; `loading` is true until the first session check or auth change. */
export interface AuthState {
  user: User | null;
  session: Session | null;
  loading: boolean;
}

const AuthContext = createContext<AuthState | null>(null);

/** The same session as far as the app can tell: the same token for the same user. */
const sameSession = (a: Session | null, b: Session | null) =>
  a === b || (a !== null && b !== null && a.access_token === b.access_token && JSON.stringify(a.user) === JSON.stringify(b.user));

/**
 * `initialSession`: the session read before the first render (a signed-in dashboard page rendered with its data at
 * once); without it the state is loading until supabase-js answers.
 */
export function AuthProvider({ initialSession, children }: { initialSession?: Session; children: ReactNode }) {
  const { auth } = useServices();
  const [state, setState] = useState<AuthState>(() =>
    initialSession ? { session: initialSession, user: initialSession.user, loading: false } : { user: null, session: null, loading: true },
  );

  useEffect(() => {
    let current = true;
    let unsubscribe = () => {};
    const apply = (session: Session | null) => {
      // The session the page started with, told again, renders nothing anew.
      if (current) setState((was) => (!was.loading && sameSession(was.session, session) ? was : { session, user: session?.user ?? null, loading: false }));
    };
    const attach = (supabase: SupabaseClient) => {
      if (!current) return;
      supabase.auth.getSession().then(
        ({ data }) => apply(data.session),
        () => apply(null),
      );
      // Never await supabase calls inside this callback: supabase-js holds its lock while notifying.
      const { data } = supabase.auth.onAuthStateChange((_event, session) => apply(session));
      unsubscribe = () => data.subscription.unsubscribe();
    };
    if (auth.current) {
      attach(auth.current);
    } else {
      // Boot loads the client when a session is stored; without one nobody is signed in until a page loads it.
      apply(null);
      void auth.loaded.then(attach);
    }
    return () => {
      current = false;
      unsubscribe();
    };
  }, [auth]);

  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}

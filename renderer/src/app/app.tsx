import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { createQueryClient } from '../api/query-client';
import type { Bridge } from '../bridge';
import { AuthProvider } from '../features/auth/auth-context';
import { system } from '../ui/theme';
import { Toaster } from '../ui/toaster';
import { BootGate } from './boot-gate';
import type { EntryLocation } from './entry-location';
import { ServicesProvider, type Services } from './services';
import { createAppRouter } from './router';

function ReadyApp({ services }: { services: Services }) {
  // A 401 means the session is gone: drop it locally and the route guard sends the user to /login.
  const [queryClient] = useState(() =>
    createQueryClient(() => void services.auth.current?.auth.signOut({ scope: 'local' })),
  );
  const [router] = useState(() => createAppRouter(services.auth));
  return (
    <ServicesProvider value={services}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </QueryClientProvider>
    </ServicesProvider>
  );
}

/** The whole renderer: theme and toasts first (the boot screen uses them), then the app once booted. */
export function App({ bridge, entry }: { bridge: Bridge; entry: EntryLocation }) {
  return (
    <ChakraProvider value={system}>
      <BootGate bridge={bridge} entry={entry}>
        {(services) => <ReadyApp services={services} />}
      </BootGate>
      <Toaster />
    </ChakraProvider>
  );
}

import { Button, Center, Code, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { ServerCrash } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import type { Bridge } from '../bridge';
import { PageSpinner } from '../ui/page-spinner';
import { bootServices } from './boot';
import type { EntryLocation } from './entry-location';
import type { Services } from './services';

type BootState = { status: 'loading' } | { status: 'ready'; services: Services } | { status: 'error'; message: string };

/**
 * Shows a spinner while the app config loads, a clear error if it cannot, and the app once it has. `booted`:
 * services already loaded (a prerendered page boots before it hydrates, so its first render is the page).
 */
export function BootGate({ bridge, entry, booted, children }: { bridge: Bridge; entry: EntryLocation; booted?: Services; children: (services: Services) => ReactNode }) {
  const [state, setState] = useState<BootState>(booted ? { status: 'ready', services: booted } : { status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (booted) return;
    let current = true;
    bootServices(bridge, entry).then(
      (services) => {
        if (current) setState({ status: 'ready', services });
      },
      (error: unknown) => {
        if (current) setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [bridge, entry, attempt, booted]);

  if (state.status === 'ready') return children(state.services);
  if (state.status === 'loading') return <PageSpinner label="Starting vibeeval..." />;
  return (
    <Center minH="100dvh" px="6">
      <Stack role="alert" data-testid="boot-error" gap="4" maxW="lg" align="center" textAlign="center">
        <Icon boxSize="10" color="severity.critical.fg" aria-hidden="true">
          <ServerCrash />
        </Icon>
        <Heading as="h1" size="xl">
          vibeeval could not start
        </Heading>
        <Text color="fg.muted">The app configuration could not be loaded from the server.</Text>
        <Code whiteSpace="pre-wrap" p="2">
          {state.message}
        </Code>
        <Button
          colorPalette="brand"
          onClick={() => {
            setState({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        >
          Try again
        </Button>
      </Stack>
    </Center>
  );
}

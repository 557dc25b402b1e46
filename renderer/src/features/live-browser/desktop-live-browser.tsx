import { Alert, Box, Center, Text } from '@chakra-ui/react';
import type { BrowserState } from '@common/ipc';
import { parseBrowserAddress } from '@common/live-browser';
import { useEffect, useRef, useState } from 'react';
import type { Bridge, LiveBrowserHost } from '../../bridge';
import { AddressBar } from './address-bar';
import { texts } from './texts';
import { measureBounds, useViewBounds } from './view-bounds';

/**
 * The desktop mode: main draws the site in a native view over the box below (its bounds follow the box), and
 * reports the page's state back. Leaving the page closes the view (main also closes it when the window reloads).
 */
export function DesktopLiveBrowser({ host, bridge, serverOrigin }: { host: LiveBrowserHost; bridge: Bridge; serverOrigin: string }) {
  const [state, setState] = useState<BrowserState | null>(null);
  const [shown, setShown] = useState(false);
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLInputElement>(null);

  useEffect(
    () =>
      bridge.subscribe('vibeeval:event:browser', (next) => {
        setState(next);
        // The address follows the page (links, redirects), unless the user is typing a new one.
        if (document.activeElement !== field.current) setInput(next.url);
      }),
    [bridge],
  );
  useEffect(() => () => void host.hide().catch(() => undefined), [host]);
  useViewBounds(box, shown, (bounds) => void host.setBounds(bounds).catch(() => undefined));

  const submit = async () => {
    const check = parseBrowserAddress(input, serverOrigin);
    if (!check.ok) return setError(check.message);
    setError(null);
    const accepted = shown ? await host.navigate(check.url) : await host.show(check.url, measureBounds(box.current!));
    if (!accepted) return setError(texts.refused);
    setInput(check.url);
    setShown(true);
  };

  return (
    <>
      <AddressBar
        inputRef={field}
        value={input}
        onChange={setInput}
        onSubmit={() => void submit()}
        onBack={() => void host.back()}
        onForward={() => void host.forward()}
        onReload={() => void host.reload()}
        canGoBack={state?.canGoBack ?? false}
        canGoForward={state?.canGoForward ?? false}
        canReload={shown}
        loading={state?.loading ?? false}
        error={error}
      />
      {state?.error && (
        <Alert.Root status="warning" borderRadius="0" data-testid="browser-load-error">
          <Alert.Indicator />
          <Alert.Description>{state.error}</Alert.Description>
        </Alert.Root>
      )}
      {/* The native view is drawn over this box; what is inside shows only until a site is. */}
      <Box ref={box} flex="1" minH="0" data-testid="browser-view">
        {!shown && (
          <Center h="full" p="6" textAlign="center" color="fg.muted">
            <Text>{texts.empty}</Text>
          </Center>
        )}
      </Box>
    </>
  );
}

import { Alert, Center, chakra, HStack, Spinner, Text } from '@chakra-ui/react';
import { parseBrowserAddress } from '@common/live-browser';
import { useState, type ReactNode } from 'react';
import { ExternalLink } from '../../ui/external-link';
import { AddressBar } from './address-bar';
import { back, canGoBack, canGoForward, current, emptyHistory, forward, visit, type AddressHistory } from './address-history';
import { texts } from './texts';
import { useFramingCheck } from './use-framing-check';

const Frame = chakra('iframe');

/** The web mode: the site in a sandboxed iframe when it allows framing (the server checks), else why not. */
export function WebLiveBrowser({ serverOrigin, ready }: { serverOrigin: string; ready: boolean }) {
  const [history, setHistory] = useState<AddressHistory>(emptyHistory);
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const [frameLoading, setFrameLoading] = useState(false);
  const url = current(history);
  const check = useFramingCheck(url);
  // Busy while the server checks the site, then while the frame loads it (a refused site loads nothing).
  const loading = check.isFetching || (frameLoading && check.data?.allowed === true);

  const show = (next: AddressHistory) => {
    setHistory(next);
    setInput(current(next) ?? '');
    setError(null);
    setFrameLoading(current(next) !== url);
  };
  const submit = () => {
    const check = parseBrowserAddress(input, serverOrigin);
    if (!check.ok) return setError(check.message);
    show(visit(history, check.url));
  };
  const reload = () => {
    setReloads((count) => count + 1);
    setFrameLoading(true);
  };

  return (
    <>
      <AddressBar
        value={input}
        onChange={setInput}
        onSubmit={submit}
        onBack={() => show(back(history))}
        onForward={() => show(forward(history))}
        onReload={reload}
        canGoBack={canGoBack(history)}
        canGoForward={canGoForward(history)}
        canReload={url !== undefined}
        loading={loading}
        error={error}
        disabled={!ready}
      />
      <FramedSite url={url} check={check} reloads={reloads} onLoaded={() => setFrameLoading(false)} />
    </>
  );
}

interface FramedSiteProps {
  url: string | undefined;
  check: ReturnType<typeof useFramingCheck>;
  reloads: number;
  onLoaded: () => void;
}

function FramedSite({ url, check, reloads, onLoaded }: FramedSiteProps) {
  if (url === undefined) return <Message>{texts.empty}</Message>;
  const host = new URL(url).host;
  if (check.isPending) {
    return (
      <Message>
        <HStack gap="2" justify="center" aria-busy="true">
          <Spinner size="sm" />
          <Text>{texts.checking(host)}</Text>
        </HStack>
      </Message>
    );
  }
  if (check.isError) return <Problem>{check.error.message}</Problem>;
  if (!check.data.allowed) {
    // The frame headers' refusal in the page's own words; other refusals (mixed content, this server) as the server says.
    const reason = check.data.reason?.includes('does not allow being shown') ? texts.framingRefused(host) : (check.data.reason ?? texts.framingRefused(host));
    return (
      <Problem testId="framing-refused">
        {reason}{' '}
        <ExternalLink href={url} color="brand.fg" fontWeight="medium" textDecoration="underline">
          {texts.openInNewTab}
        </ExternalLink>
      </Problem>
    );
  }
  return (
    // Another origin than ours (this server's own pages are refused, and its answers forbid framing), so
    // allow-same-origin only lets the site keep its own storage; no popups, no top navigation.
    <Frame
      key={`${reloads}:${url}`}
      src={url}
      title={texts.frameTitle(host)}
      sandbox="allow-scripts allow-forms allow-same-origin"
      referrerPolicy="no-referrer"
      onLoad={onLoaded}
      display="block"
      w="full"
      h="full"
      bg="white"
      border="0"
      data-testid="browser-frame"
    />
  );
}

function Message({ children }: { children: ReactNode }) {
  return (
    <Center h="full" p="6" textAlign="center" color="fg.muted">
      {children}
    </Center>
  );
}

function Problem({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Center h="full" p={{ base: '4', md: '8' }}>
      <Alert.Root status="warning" maxW="xl" data-testid={testId}>
        <Alert.Indicator />
        <Alert.Description wordBreak="break-word">{children}</Alert.Description>
      </Alert.Root>
    </Center>
  );
}

import { Box, Button, Card, Code, HStack, Heading, List, Stack, Tabs, Text } from '@chakra-ui/react';
import type { MonitoringOverview } from '@common/continuous';
import { RotateCw } from 'lucide-react';
import { useState } from 'react';
import { useServices } from '../../../app/services';
import { CodeBlock } from '../../../ui/code-block';
import { ConfirmDeleteDialog } from '../../../ui/confirm-delete-dialog';
import { nextScriptSnippet, scriptTag } from '../continuous-format';
import { useRotateSiteToken } from '../hooks/use-rotate-site-token';
import { texts } from '../texts';

/** Installation: the script tag with the project's site token, where to paste it per builder, how to verify it. */
export function InstallationTab({ overview, onOpenHistory }: { overview: MonitoringOverview; onOpenHistory: () => void }) {
  const { serverOrigin } = useServices();
  const tag = scriptTag(serverOrigin, overview.site_token);
  return (
    <Stack gap="6">
      <Card.Root variant="outline">
        <Card.Body gap="4">
          <Heading as="h2" size="md">
            {texts.scriptTag}
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            {texts.installIntro}
          </Text>
          <CodeBlock code={tag} copyLabel={texts.copyTag} testId="script-tag" />
          <RotateToken overview={overview} />
        </Card.Body>
      </Card.Root>
      <Guides tag={tag} nextSnippet={nextScriptSnippet(serverOrigin, overview.site_token)} />
      <Verify onOpenHistory={onOpenHistory} />
    </Stack>
  );
}

function RotateToken({ overview }: { overview: MonitoringOverview }) {
  const rotate = useRotateSiteToken(overview.project_id);
  const [confirming, setConfirming] = useState(false);
  return (
    <HStack justify="space-between" wrap="wrap" gap="3" pt="2" borderTopWidth="1px">
      <Text fontSize="sm" minW="0" wordBreak="break-all">
        {texts.tokenLabel}: <Code data-testid="site-token">{overview.site_token}</Code>
      </Text>
      <Button size="sm" variant="outline" colorPalette="red" onClick={() => setConfirming(true)}>
        <RotateCw aria-hidden /> {texts.rotate}
      </Button>
      <ConfirmDeleteDialog
        title={texts.rotateTitle}
        question={texts.rotateQuestion}
        name={overview.url}
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={() => rotate.mutate(undefined, { onSuccess: () => setConfirming(false) })}
        deleting={rotate.isPending}
        confirmLabel={texts.rotate}
        busyLabel={texts.rotating}
      />
    </HStack>
  );
}

function Guides({ tag, nextSnippet }: { tag: string; nextSnippet: string }) {
  return (
    <Card.Root variant="outline">
      <Card.Body gap="4">
        <Heading as="h2" size="md">
          {texts.guidesTitle}
        </Heading>
        <Tabs.Root defaultValue="lovable" variant="enclosed" size="sm" lazyMount>
          <Tabs.List flexWrap="wrap" maxW="full">
            {GUIDES.map((guide) => (
              <Tabs.Trigger key={guide.id} value={guide.id} whiteSpace="nowrap" flexShrink={0}>
                {guide.name}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {GUIDES.map((guide) => (
            <Tabs.Content key={guide.id} value={guide.id}>
              <Stack gap="3" fontSize="sm">
                <List.Root as="ol" gap="2" ps="5">
                  {guide.steps.map((step) => (
                    <List.Item key={step}>{step}</List.Item>
                  ))}
                </List.Root>
                {guide.id === 'next' ? (
                  <CodeBlock code={nextSnippet} label="app/layout.tsx" copyLabel="Copy Next.js snippet" />
                ) : (
                  guide.showTag && <CodeBlock code={tag} label={guide.file} copyLabel={`Copy script tag for ${guide.name}`} />
                )}
              </Stack>
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </Card.Body>
    </Card.Root>
  );
}

interface Guide {
  id: string;
  name: string;
  steps: string[];
  file?: string;
  showTag?: boolean;
}

const GUIDES: Guide[] = [
  {
    id: 'lovable',
    name: 'Lovable',
    steps: [
      'Open your project in Lovable and switch to Code view (or ask the chat: “Add this script tag to index.html, just before </body>”).',
      'In index.html, paste the script tag just before the closing </body> tag.',
      'Publish the project: the tag goes live with your next deploy.',
    ],
    file: 'index.html',
    showTag: true,
  },
  {
    id: 'bolt',
    name: 'Bolt',
    steps: [
      'Open the project in Bolt and find index.html in the file tree (at the project root).',
      'Paste the script tag just before the closing </body> tag.',
      'Deploy again (Deploy / Publish) so the live site carries the tag.',
    ],
    file: 'index.html',
    showTag: true,
  },
  {
    id: 'next',
    name: 'v0 / Next.js',
    steps: [
      'Open app/layout.tsx (App Router; with the Pages Router use pages/_document.tsx).',
      'Import Script from next/script and add it inside <body>, after {children}, as below.',
      'Deploy (from v0: Publish). Every page shares the layout, so every page reports.',
    ],
  },
  {
    id: 'vite',
    name: 'Vite',
    steps: [
      'Open index.html at the project root (not in public/).',
      'Paste the script tag just before the closing </body> tag; Vite keeps it as it is in the build.',
      'Build and deploy as usual.',
    ],
    file: 'index.html',
    showTag: true,
  },
  {
    id: 'html',
    name: 'Plain HTML',
    steps: ['Paste the script tag just before the closing </body> tag of every page (or of the shared footer your pages include).', 'Upload the pages as usual.'],
    file: 'every page',
    showTag: true,
  },
];

function Verify({ onOpenHistory }: { onOpenHistory: () => void }) {
  return (
    <Card.Root variant="outline">
      <Card.Body gap="3">
        <Heading as="h2" size="md">
          {texts.verifyTitle}
        </Heading>
        <List.Root as="ol" gap="2" ps="5" fontSize="sm">
          <List.Item>Open your live site in a browser and wait a few seconds on the page.</List.Item>
          <List.Item>
            A build appears in{' '}
            <Box as="button" color="brand.fg" textDecoration="underline" onClick={onOpenHistory}>
              Event History
            </Box>{' '}
            (it updates live; press Refresh if it does not).
          </List.Item>
          <List.Item>
            Or open the browser’s developer tools, Network tab, and reload: a POST to <Code>/continuous-testing</Code> answering 202 (a new build) or 200 (nothing changed) means
            the script works.
          </List.Item>
        </List.Root>
        <Text fontSize="sm" color="fg.muted">
          The script checks at most once every 5 minutes per browser. To check again at once, clear the site’s <Code>vibeeval_monitor</Code> entry in localStorage (developer tools,
          Application tab).
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

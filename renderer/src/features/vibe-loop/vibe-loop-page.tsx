import { Accordion, Badge, Box, Clipboard, Code, Container, HStack, Heading, Icon, IconButton, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { MONITORING } from '@common/marketing';
import { Bell, CalendarClock, Fingerprint, HardDrive, Radio, Send, Timer, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useHydrated } from '../../app/hydration';
import { useServices } from '../../app/services';
import { PageHeading } from '../../ui/page-heading';
import { LiveBrowser } from '../live-browser';
import { HashDemo } from './hash-demo';

const MINUTES = MONITORING.minIntervalMs / 60_000;

/** /vibe-loop: the monitoring script guide, also labelled Live Browser Demo. */
export function VibeLoopPage() {
  const { serverOrigin } = useServices();
  // The server's address is known only in the browser: the prerendered page shows where it goes.
  const origin = useHydrated() ? serverOrigin : 'https://your-vibeeval-server';
  const snippet = `<script src="${origin}/latest.js" data-site="YOUR_SITE_TOKEN" async></script>`;

  return (
    <Container maxW="5xl" px={{ base: '4', md: '6' }} py={{ base: '8', md: '14' }}>
      <Badge colorPalette="brand" variant="subtle" size="lg" gap="1.5" mb="3">
        <Icon boxSize="3.5" aria-hidden="true">
          <Radio />
        </Icon>
        Live Browser Demo
      </Badge>
      <PageHeading title="Vibe Loop" subtitle="Page-change monitoring for your live site: one script tag, and vibeeval re-scans whenever a page changes." />

      <Stack gap={{ base: '12', md: '16' }}>
        <Section id="install" title="Add one script tag">
          <Text color="fg.muted">
            Paste this before the closing <Code>&lt;/body&gt;</Code> tag of your site, or in your builder&apos;s custom code settings. It loads asynchronously, so it never blocks
            your page from rendering.
          </Text>
          <HStack align="start" gap="2" bg="gray.900" color="gray.100" borderRadius="lg" p={{ base: '3', md: '4' }} _dark={{ bg: 'gray.950' }}>
            <Box as="pre" flex="1" minW="0" whiteSpace="pre-wrap" wordBreak="break-all" fontFamily="mono" fontSize={{ base: 'xs', md: 'sm' }} py="1">
              <code data-testid="script-tag">{snippet}</code>
            </Box>
            <Clipboard.Root value={snippet}>
              <Clipboard.Trigger asChild>
                <IconButton aria-label="Copy script tag" size="sm" variant="subtle" colorPalette="gray">
                  <Clipboard.Indicator />
                </IconButton>
              </Clipboard.Trigger>
            </Clipboard.Root>
          </HStack>
          <Text color="fg.muted" fontSize="sm" data-testid="site-token-hint">
            Replace <Code>YOUR_SITE_TOKEN</Code> with your project&apos;s site token: open the project, choose{' '}
            <Text as="span" fontWeight="medium">
              Open continuous testing
            </Text>{' '}
            on its Overview, and copy the ready-made tag from the Installation tab of{' '}
            <Link asChild color="brand.fg" fontWeight="medium">
              <RouterLink to="/dashboard/continuous-testing?tab=installation">Continuous Testing</RouterLink>
            </Link>
            . Each project has its own token, so reports go to the right project.
          </Text>
        </Section>

        <Section id="how-it-works" title="What the script does">
          <SimpleGrid as="ol" columns={{ base: 1, md: 2 }} gap="4" listStyleType="none" m="0" p="0">
            <Step n={1} icon={Fingerprint} title="Hashes the page">
              It takes the page&apos;s content, normalises it (every run of whitespace becomes one space), and computes an FNV-1a hash: a fast, 32-bit fingerprint that changes when
              the content changes.
            </Step>
            <Step n={2} icon={HardDrive} title="Compares with the last hash">
              The previous hash and the time it was reported are kept in the browser&apos;s localStorage, so nothing about the page needs to be stored anywhere else.
            </Step>
            <Step n={3} icon={Send} title="Reports only when needed">
              It sends <Code>POST /continuous-testing</Code> with the content hash and the site&apos;s hostname when the hash changed, when there is no stored hash yet, or when the
              stored one is older than {MONITORING.staleAfterHours} hours.
            </Step>
            <Step n={4} icon={Bell} title="vibeeval re-scans">
              A changed page triggers a new security scan of the project, so a change published outside your CI pipeline is still checked. Its result reaches you by email (unless
              turned off in Preferences) and through your webhooks, and in the desktop app as a desktop notification too.
            </Step>
          </SimpleGrid>
        </Section>

        <Section id="limits" title="Built-in limits">
          <SimpleGrid columns={{ base: 1, sm: 3 }} gap="4">
            <Limit icon={Timer} value={`${MINUTES} minutes`} label="at least, between two checks" detail={`${MONITORING.minIntervalMs} ms`} mono />
            <Limit icon={CalendarClock} value={`${MONITORING.maxRunsPerDay} runs`} label="at most per day" detail="The count resets at midnight UTC" />
            <Limit
              icon={Fingerprint}
              value={`${MONITORING.staleAfterHours} hours`}
              label="before an unchanged hash is reported again"
              detail="So a quiet site is still checked daily"
            />
          </SimpleGrid>
        </Section>

        <Section id="live-browser-demo" title="Live Browser Demo">
          <Text color="fg.muted">Open your site here as your visitors see it: type its address, then move around it with Back, Forward and Reload.</Text>
          <LiveBrowser />
          <Heading as="h3" size="md" mt="4">
            The script&apos;s hash
          </Heading>
          <Text color="fg.muted">
            This is the same hash the script computes, running in your browser now. Change a word and the hash changes; add spaces or blank lines and it does not.
          </Text>
          <HashDemo />
        </Section>

        <Section id="faq" title="Frequently asked questions">
          <Accordion.Root multiple collapsible defaultValue={['privacy']} variant="outline">
            {FAQ.map((item) => (
              <Accordion.Item key={item.id} value={item.id}>
                <Heading as="h3" size="sm">
                  <Accordion.ItemTrigger cursor="pointer" py="4" fontWeight="semibold">
                    <Text as="span" flex="1" textAlign="start">
                      {item.question}
                    </Text>
                    <Accordion.ItemIndicator />
                  </Accordion.ItemTrigger>
                </Heading>
                <Accordion.ItemContent>
                  <Accordion.ItemBody color="fg.muted" pt="0">
                    {item.answer}
                  </Accordion.ItemBody>
                </Accordion.ItemContent>
              </Accordion.Item>
            ))}
          </Accordion.Root>
        </Section>
      </Stack>
    </Container>
  );
}

const FAQ: { id: string; question: string; answer: ReactNode }[] = [
  {
    id: 'privacy',
    question: 'What leaves my visitors’ browsers?',
    answer: (
      <>
        Only the content hash and the site&apos;s hostname. No page text, no URL paths or query strings, no cookies, no form values and nothing about the visitor. The hash is a
        fingerprint of the content, not the content itself.
      </>
    ),
  },
  {
    id: 'performance',
    question: 'Will it slow my site down?',
    answer: (
      <>
        No. The script loads with <Code>async</Code>, hashing a page&apos;s text is a single pass that takes a few milliseconds at most, and there are at least {MINUTES} minutes
        between two checks.
      </>
    ),
  },
  {
    id: 'visitors',
    question: 'Does every visitor trigger a scan?',
    answer: (
      <>
        No. A report is sent only when the hash changed, is missing, or is older than {MONITORING.staleAfterHours} hours, and a project runs at most {MONITORING.maxRunsPerDay}{' '}
        times per day, with the count reset at midnight UTC.
      </>
    ),
  },
  {
    id: 'fnv',
    question: 'Why FNV-1a and not SHA-256?',
    answer: (
      <>
        The hash only needs to notice that content changed, not to resist an attacker. FNV-1a is tiny, fast and synchronous, so it adds almost nothing to the script. An accidental
        collision is very unlikely, and the daily report catches it anyway.
      </>
    ),
  },
  {
    id: 'remove',
    question: 'How do I stop monitoring?',
    answer: (
      <>
        Turn it off on the Continuous Testing page, or remove the script tag from your site. Nothing else needs cleaning up: the only thing the script leaves behind is one
        localStorage entry per browser.
      </>
    ),
  },
];

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack as="section" aria-labelledby={id} gap="4" scrollMarginTop="20">
      <Heading as="h2" id={id} size="xl" letterSpacing="tight">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

function Step({ n, icon, title, children }: { n: number; icon: LucideIcon; title: string; children: ReactNode }) {
  const StepIcon = icon;
  return (
    <Box as="li" borderWidth="1px" borderRadius="lg" p="5" bg="bg">
      <HStack gap="3" mb="2">
        <Box display="grid" placeItems="center" boxSize="9" borderRadius="full" bg="brand.subtle" color="brand.fg" flexShrink="0" aria-hidden="true">
          <StepIcon size={18} />
        </Box>
        <Heading as="h3" size="md">
          <Text as="span" color="fg.muted" fontWeight="medium" me="1.5">
            {n}.
          </Text>
          {title}
        </Heading>
      </HStack>
      <Text color="fg.muted" fontSize="sm" lineHeight="1.65">
        {children}
      </Text>
    </Box>
  );
}

function Limit({ icon, value, label, detail, mono }: { icon: LucideIcon; value: string; label: string; detail: string; mono?: boolean }) {
  const LimitIcon = icon;
  return (
    <Stack borderWidth="1px" borderRadius="lg" p="5" gap="1" data-testid="limit">
      <Box color="brand.fg" mb="1" aria-hidden="true">
        <LimitIcon size={20} />
      </Box>
      <Text fontSize="2xl" fontWeight="bold" letterSpacing="tight">
        {value}
      </Text>
      <Text color="fg.muted" fontSize="sm">
        {label}
      </Text>
      <Text fontSize="xs" color="fg.muted" fontFamily={mono ? 'mono' : undefined}>
        {detail}
      </Text>
    </Stack>
  );
}

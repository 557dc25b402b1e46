import { Box, Button, Container, Flex, Grid, Heading, Icon, List, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { ArrowRight, Building2, CircleAlert, CircleCheck, Laptop, Rocket, UsersRound, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { PageHeading } from '../../ui/page-heading';
import { CtaBand, Eyebrow } from './company/cta-band';
import { JumpLink } from '../../ui/jump-link';

interface UseCase {
  id: string;
  icon: LucideIcon;
  /** The h2. */
  title: string;
  eyebrow: string;
  /** One line under the heading, and the overview card's text. */
  tagline: string;
  problem: ReactNode[];
  features: ReactNode[];
  /** A command to copy, shown under the feature list. */
  snippet?: { label: string; code: string };
}

const Mono = ({ children }: { children: ReactNode }) => (
  <Box as="code" fontFamily="mono" fontSize="0.875em" bg="bg.muted" px="1" borderRadius="sm">
    {children}
  </Box>
);

const USE_CASES: UseCase[] = [
  {
    id: 'solo-developer',
    icon: Laptop,
    title: 'Solo developer',
    eyebrow: 'For indie hackers and side projects',
    tagline: 'You built it in a weekend with an AI tool. Find out what it exposes before you post the link.',
    problem: [
      'Lovable, Bolt and v0 get an app working fast, and the generated code usually talks straight to Supabase or Firebase from the browser. Whether that is safe depends on row level security rules and keys you may never have looked at.',
      'You are not a security engineer, and tools like OWASP ZAP assume you are. You need a plain answer to one question: can a stranger read my users\u2019 data?',
    ],
    features: [
      <>
        <strong>Paste a URL, get a graded report</strong> in about a minute. Every finding comes with evidence (the request, an excerpt of the response and the matched text) and a
        fix you can hand back to your AI tool.
      </>,
      <>
        <strong>Supabase checks</strong>: tables readable with the public anon key because row level security is off, <Mono>service_role</Mono> and <Mono>sb_secret_</Mono> keys in
        the bundle, and storage buckets anyone can list.
      </>,
      <>
        <strong>Firebase checks</strong>: Realtime Database, Firestore and Storage that answer without authentication.
      </>,
      <>
        <strong>100+ secret patterns</strong>, including Supabase <Mono>service_role</Mono> keys and Stripe secret keys, always masked in the report.
      </>,
      <>
        <strong>A desktop app with no cloud account.</strong> Scans run from your own machine and the results stay in a database on it.
      </>,
    ],
  },
  {
    id: 'startup',
    icon: Rocket,
    title: 'Startup',
    eyebrow: 'For small teams shipping every day',
    tagline: 'Keep shipping fast without re-opening the holes you already closed.',
    problem: [
      'Several people and a few AI agents push to production every day. One regenerated component can ship a secret key again; one dependency bump can pull in a JavaScript library with a known vulnerability.',
      'You have no security team, and your first enterprise customer has just sent a questionnaire asking how you test.',
    ],
    features: [
      <>
        <strong>A CLI for your pipeline</strong>: <Mono>npx vibeeval scan &lt;url&gt;</Mono> with <Mono>--fail-on</Mono> stops a deploy when a finding reaches the severity you
        choose, and SARIF output uploads straight to GitHub code scanning.
      </>,
      <>
        <strong>Vulnerable JavaScript libraries</strong> detected from file names, banners and bundle contents, matched against hundreds of known advisories.
      </>,
      <>
        <strong>Exposed files</strong>: <Mono>.env</Mono> variants, <Mono>.git</Mono> folders and source maps that reveal your code, each confirmed by its content rather than
        guessed from a status code.
      </>,
      <>
        <strong>An HTTP Observatory-compatible header grade</strong>, scored like MDN&rsquo;s HTTP Observatory, so your number matches the one a customer would look up.
      </>,
      <>
        <strong>Webhooks and API keys</strong> to post new findings to your chat or tracker and start scans from your own tooling.
      </>,
    ],
    snippet: {
      label: 'In a CI job',
      code: 'npx vibeeval scan "$STAGING_URL" \\\n  --fail-on high --out vibeeval.sarif',
    },
  },
  {
    id: 'agency',
    icon: UsersRound,
    title: 'Agency',
    eyebrow: 'For studios and freelancers',
    tagline: 'Hand over every client app with proof that it was checked, not a promise.',
    problem: [
      'You deliver many client apps a quarter, more of them built with AI tools each month. At hand-over the client asks whether it is secure, and \u201cwe were careful\u201d is not an answer you want in writing.',
      'Each client needs a report they can understand, and each developer who inherits the app needs details they can act on.',
    ],
    features: [
      <>
        <strong>One project per client site</strong>, with its scan history and grade over time, and what each new scan found or fixed.
      </>,
      <>
        <strong>Reports in HTML, PDF, CSV, JSON and SARIF</strong>: a PDF for the client, a CSV for your tracker, JSON or SARIF for the developers.
      </>,
      <>
        <strong>Evidence per finding</strong>, so the client&rsquo;s team can reproduce every issue without taking your word for it.
      </>,
      <>
        <strong>AI browser test scenarios in real Chromium</strong>: describe a flow such as sign-up or checkout in plain words and vibeeval runs it in a real browser, step by
        step.
      </>,
      <>
        <strong>Read-only by default</strong>, with active probes only when you opt in, so testing a client&rsquo;s live site is safe once you have their written permission.
      </>,
    ],
  },
  {
    id: 'enterprise',
    icon: Building2,
    title: 'Enterprise',
    eyebrow: 'For security and platform teams',
    tagline: 'Cover the long tail of AI-built internal tools without sending data outside your network.',
    problem: [
      'Teams across the company build internal tools and prototypes with Cursor and Replit faster than the security team can review them. Many end up on public URLs with real data behind them.',
      'Your DAST suite is thorough but slow to set up per app, and scan results cannot leave your infrastructure.',
    ],
    features: [
      <>
        <strong>Team mode on your own PostgreSQL</strong>: run the vibeeval server and as many scan workers as you need; projects, findings and reports stay in your database.
      </>,
      <>
        <strong>Safe for shared infrastructure</strong>: the server refuses private and internal addresses unless you allow-list them, checks each connection so DNS tricks cannot
        reach internal hosts, and rate-limits requests per host.
      </>,
      <>
        <strong>Fits your pipelines</strong>: SARIF and JSON for code scanning and data platforms, webhooks for ticketing, API keys for automation.
      </>,
      <>
        <strong>Focused on the AI-builder stack</strong>: Supabase, Firebase and leaked keys, checks that complement OWASP ZAP and Nuclei rather than replace them.
      </>,
    ],
    snippet: {
      label: 'Team mode',
      code: 'export DATABASE_URL=postgres://...\nnpx vibeeval serve\nnpx vibeeval worker',
    },
  },
];

function Bullet({ icon, color, children }: { icon: LucideIcon; color: string; children: ReactNode }) {
  const Glyph = icon;
  return (
    <List.Item alignItems="flex-start" lineHeight="1.7">
      <List.Indicator asChild color={color} mt="1">
        <Icon boxSize="4" aria-hidden="true">
          <Glyph />
        </Icon>
      </List.Indicator>
      <Box>{children}</Box>
    </List.Item>
  );
}

function UseCaseSection({ useCase, index }: { useCase: UseCase; index: number }) {
  const Glyph = useCase.icon;
  return (
    <Box as="section" aria-labelledby={useCase.id} pt={{ base: '14', md: '20' }} data-testid="use-case">
      <Flex gap="4" align="start" mb="8" maxW="3xl">
        <Flex
          display={{ base: 'none', sm: 'flex' }}
          boxSize="12"
          align="center"
          justify="center"
          borderRadius="xl"
          bg="brand.solid"
          color="white"
          flexShrink="0"
          aria-hidden="true"
        >
          <Icon boxSize="6">
            <Glyph />
          </Icon>
        </Flex>
        <Stack gap="1">
          <Eyebrow>
            {index + 1} · {useCase.eyebrow}
          </Eyebrow>
          <Heading as="h2" id={useCase.id} tabIndex={-1} size={{ base: 'xl', md: '2xl' }} letterSpacing="tight" scrollMarginTop="24">
            {useCase.title}
          </Heading>
          <Text color="fg.muted" fontSize={{ base: 'md', md: 'lg' }}>
            {useCase.tagline}
          </Text>
        </Stack>
      </Flex>
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: '2fr 3fr' }} gap={{ base: '6', lg: '10' }}>
        <Box borderRadius="xl" bg="bg.subtle" borderWidth="1px" p={{ base: '5', md: '6' }} alignSelf="start">
          <Heading as="h3" size="md" mb="3" display="flex" alignItems="center" gap="2">
            <Icon boxSize="4" color="severity.critical.fg" aria-hidden="true">
              <CircleAlert />
            </Icon>
            The problem
          </Heading>
          <Stack gap="3" color="fg.muted" lineHeight="1.7">
            {useCase.problem.map((text, i) => (
              <Text key={i}>{text}</Text>
            ))}
          </Stack>
        </Box>
        <Box>
          <Heading as="h3" size="md" mb="3">
            What vibeeval does
          </Heading>
          <List.Root gap="3" variant="plain" color="fg.muted" css={{ '& strong': { color: 'fg', fontWeight: 'semibold' } }}>
            {useCase.features.map((feature, i) => (
              <Bullet key={i} icon={CircleCheck} color="brand.fg">
                {feature}
              </Bullet>
            ))}
          </List.Root>
          {useCase.snippet && (
            <Box mt="5" borderRadius="lg" overflow="hidden" borderWidth="1px" borderColor="gray.800">
              <Text bg="gray.800" color="gray.200" fontSize="xs" fontWeight="medium" px="4" py="1.5">
                {useCase.snippet.label}
              </Text>
              <Box
                as="pre"
                bg="gray.950"
                color="gray.100"
                fontFamily="mono"
                fontSize={{ base: 'xs', sm: 'sm' }}
                lineHeight="1.7"
                px="4"
                py="3"
                whiteSpace="pre-wrap"
                wordBreak="break-word"
              >
                <code>{useCase.snippet.code}</code>
              </Box>
            </Box>
          )}
        </Box>
      </Grid>
    </Box>
  );
}

/** /use-cases */
export function UseCasesPage() {
  return (
    <Container maxW="6xl" px={{ base: '4', md: '6' }} py={{ base: '10', md: '16' }}>
      <Box maxW="3xl">
        <PageHeading title="Use Cases" subtitle="One scanner, from a weekend project to a company-wide program." />
        <Text fontSize={{ base: 'md', md: 'lg' }} color="fg.muted" lineHeight="1.7">
          Apps built with AI coding tools fail in the same few ways: open databases, keys in the browser, files that should never be public. Here is how vibeeval finds them for
          four kinds of teams, and what it gives each of them to act on.
        </Text>
      </Box>

      <SimpleGrid as="ul" columns={{ base: 2, lg: 4 }} gap={{ base: '3', md: '4' }} mt="10" listStyleType="none" aria-label="Use cases on this page">
        {USE_CASES.map((useCase) => {
          const Glyph = useCase.icon;
          return (
            <Box as="li" key={useCase.id}>
              <JumpLink
                to={useCase.id}
                display="flex"
                flexDirection="column"
                alignItems="flex-start"
                gap="2"
                h="full"
                p={{ base: '4', md: '5' }}
                borderWidth="1px"
                borderRadius="xl"
                color="fg"
                textDecoration="none"
                transition="border-color 0.15s, box-shadow 0.15s"
                _hover={{ borderColor: 'brand.solid', shadow: 'sm', textDecoration: 'none' }}
                focusVisibleRing="outside"
              >
                <Icon boxSize="5" color="brand.fg" aria-hidden="true">
                  <Glyph />
                </Icon>
                <Text fontWeight="semibold">{useCase.title}</Text>
                <Text fontSize="sm" color="fg.muted" display={{ base: 'none', sm: 'block' }}>
                  {useCase.tagline}
                </Text>
                <Text fontSize="sm" color="brand.fg" fontWeight="medium" display={{ base: 'none', sm: 'flex' }} alignItems="center" gap="1" mt="auto">
                  Read more
                  <Icon boxSize="3.5" aria-hidden="true">
                    <ArrowRight />
                  </Icon>
                </Text>
              </JumpLink>
            </Box>
          );
        })}
      </SimpleGrid>

      {USE_CASES.map((useCase, index) => (
        <UseCaseSection key={useCase.id} useCase={useCase} index={index} />
      ))}

      <CtaBand
        title="See what your app exposes"
        actions={
          <>
            <Button asChild size="lg" bg="white" color="brand.700" _hover={{ bg: 'brand.50' }}>
              <RouterLink to="/signup">Try Now</RouterLink>
            </Button>
            <Button asChild size="lg" variant="outline" color="white" borderColor="whiteAlpha.600" _hover={{ bg: 'whiteAlpha.200' }}>
              <RouterLink to="/#pricing">See pricing</RouterLink>
            </Button>
          </>
        }
      >
        Scan your first site in minutes, from the desktop app or the command line. No cloud account needed.
      </CtaBand>
    </Container>
  );
}

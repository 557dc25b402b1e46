import { Badge, Box, Card, HStack, Heading, List, Stack, Text } from '@chakra-ui/react';
import { formatArticleDate } from './articles';

interface NoteSection {
  title: string;
  items: string[];
}

export const RELEASE = { version: '1.0.0', date: '2026-11-16' } as const;

const SECTIONS: NoteSection[] = [
  {
    title: 'URL security scanning',
    items: [
      'Scan any website from the outside; every finding comes with its evidence: the HTTP request and the response that proves it.',
      'Read-only by default. Active probes (a harmless reflected-XSS marker and an open-redirect check) run only when you opt in, on sites you own.',
      'Single-page apps are crawled with a real Chromium render, so client-side routes and the requests the app makes are seen.',
      'Live progress while a scan runs, in the dashboard and on the command line.',
    ],
  },
  {
    title: '47 checks in 12 families',
    items: [
      'Transport and TLS: HTTPS redirect, HSTS, certificate validity and expiry, mixed content.',
      'Security headers with an MDN HTTP Observatory-compatible score and grade, plus cookie flags and CORS misconfigurations.',
      'Information disclosure and exposed files: .env, .git, source maps, backups, and AI-tool files such as CLAUDE.md, AGENTS.md and .cursor/rules.',
      'More than 100 secret patterns with entropy and role detection: a Supabase service_role JWT or sb_secret_ key and a Stripe sk_live_ key are flagged; publishable keys are not.',
      'Supabase: tables readable with the anon key, found with read-only HEAD requests (the CVE-2025-48757 class), storage buckets and exposed RPC names. Firebase: Realtime Database, Firestore and Storage readable without auth.',
      'Vulnerable JavaScript libraries from Retire.js and GitHub advisories, known-malicious script hosts such as polyfill.io, and insecure forms.',
    ],
  },
  {
    title: 'Reports and CI',
    items: [
      'Reports in HTML, PDF, CSV, JSON and SARIF 2.1.0 (for GitHub code scanning).',
      'Command line for CI: npx vibeeval scan <url> --fail-on high exits with 1 when a finding reaches the chosen severity.',
      'Performance (TTFB, FCP, LCP, CLS) and accessibility (axe-core) audit reports, measured in Chromium.',
    ],
  },
  {
    title: 'Desktop, local-first and team mode',
    items: [
      'A desktop app with its backend embedded: it works with no cloud account, and your data stays on your machine.',
      'The same backend runs standalone on PostgreSQL for a team.',
    ],
  },
];

const COMING_LATER = ['AI browser test scenarios: describe a flow in plain English and run it in real Chromium with Playwright.', 'Webhooks and API keys.'];

/** The Release Notes tab: what version 1.0.0 shipped, and what comes next. */
export function ReleaseNotes() {
  return (
    <Card.Root variant="outline" data-testid="release-notes">
      <Card.Body gap="6" p={{ base: '5', md: '8' }}>
        <Stack gap="2">
          <HStack gap="2" wrap="wrap">
            <Badge colorPalette="brand" variant="solid">
              v{RELEASE.version}
            </Badge>
            <Badge colorPalette="green" variant="subtle">
              Latest
            </Badge>
            <Text fontSize="sm" color="fg.muted">
              Released <time dateTime={RELEASE.date}>{formatArticleDate(RELEASE.date)}</time>
            </Text>
          </HStack>
          <Heading as="h2" size="xl">
            vibeeval {RELEASE.version}
          </Heading>
          <Text color="fg.muted" maxW="70ch">
            The first release: find the security holes in websites built with AI coding tools such as Lovable, Bolt, v0, Cursor and Replit, from the outside, with evidence for
            every finding.
          </Text>
        </Stack>
        {SECTIONS.map((section) => (
          <Box key={section.title}>
            <Heading as="h3" size="md" mb="2">
              {section.title}
            </Heading>
            <List.Root gap="1.5" ps="5" color="fg.muted" maxW="75ch">
              {section.items.map((item) => (
                <List.Item key={item}>{item}</List.Item>
              ))}
            </List.Root>
          </Box>
        ))}
        <Box bg="bg.subtle" borderWidth="1px" borderRadius="md" p="4">
          <Heading as="h3" size="sm" mb="2">
            Coming in later releases
          </Heading>
          <List.Root gap="1.5" ps="5" color="fg.muted" fontSize="sm">
            {COMING_LATER.map((item) => (
              <List.Item key={item}>{item}</List.Item>
            ))}
          </List.Root>
        </Box>
      </Card.Body>
    </Card.Root>
  );
}

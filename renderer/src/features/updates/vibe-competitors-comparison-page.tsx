import { Box, Container, Heading, Link, List, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { ArticleBody, ArticleLayout } from './article-layout';
import { COMPARISON_NOTES } from './comparison-data';
import { ComparisonTable, SupportLegend } from './comparison-table';

export const COMPARISON_DISCLAIMER = 'Based on public documentation as of November 2026; vendor claims are not independently verified.';

/** /updates/vibe-competitors-comparison */
export function VibeCompetitorsComparisonPage() {
  return (
    <ArticleLayout path="/updates/vibe-competitors-comparison">
      <ArticleBody>
        <p>
          &ldquo;Which scanner should I use?&rdquo; is the question we hear most from people shipping apps built with AI coding tools. The honest answer is that the tools below
          solve different problems. Some test a live site from the outside, some read your source code, some grade a handful of headers, and a new group focuses on the specific
          mistakes of vibe-coded apps. This article compares vibeeval with ten of them feature by feature, including the rows where vibeeval is weaker.
        </p>

        <h2>How we compared</h2>
        <p>
          We rated each tool on twenty capabilities in three groups: <strong>security</strong> (what it finds), <strong>integration</strong> (how it fits into CI and other tools)
          and <strong>usability</strong> (how you run it and read the results). Ratings come from each vendor&apos;s public documentation and product pages. We did not benchmark
          detection quality, which depends heavily on the site being tested, and we did not verify vendor claims independently.
        </p>
        <p>
          When a capability was clearly documented we rated it Yes. When it was limited, needed an add-on, or was described only in general terms (&ldquo;150+ checks&rdquo; without
          a list) we rated it Partial. When we could not find it, we rated it No, which means &ldquo;not documented&rdquo;, not &ldquo;proven absent&rdquo;. If you maintain one of
          these tools and a rating is wrong, tell us and we will correct it.
        </p>
      </ArticleBody>

      <Container as="section" aria-labelledby="feature-comparison" maxW="7xl" px={{ base: '4', md: '6' }} mt="12">
        <Stack gap="4">
          <Heading as="h2" id="feature-comparison" size="xl" letterSpacing="tight">
            Feature comparison
          </Heading>
          <SupportLegend />
          <ComparisonTable />
          <Box as="aside" aria-label="Notes on the ratings" bg="bg.subtle" borderWidth="1px" borderRadius="lg" p={{ base: '4', md: '5' }}>
            <Text fontWeight="semibold" mb="2">
              Notes
            </Text>
            <List.Root gap="1.5" fontSize="sm" color="fg.muted" ps="5" maxW="110ch">
              {COMPARISON_NOTES.map((note) => (
                <List.Item key={note}>{note}</List.Item>
              ))}
            </List.Root>
            <Text fontSize="sm" mt="3" fontStyle="italic" data-testid="comparison-disclaimer">
              {COMPARISON_DISCLAIMER}
            </Text>
          </Box>
        </Stack>
      </Container>

      <Box mt="4">
        <ArticleBody>
          <h2>What the table says</h2>
          <h3>General-purpose web scanners: OWASP ZAP and Burp Suite Professional</h3>
          <p>
            ZAP and Burp are the reference tools of web application security testing. Both crawl a site, render it in a browser, and run active attacks (injection, cross-site
            scripting, access control) that vibeeval deliberately does not. ZAP&apos;s baseline scan alone runs about 30 passive rules, including the same Retire.js data we use for
            vulnerable libraries. If you have a security engineer, or want to learn penetration testing, start here.
          </p>
          <p>
            What they lack is knowledge of the stacks AI tools generate. Neither checks whether a Supabase table answers the anon key, whether a JWT in the bundle carries the{' '}
            <code>service_role</code> claim, or whether <code>CLAUDE.md</code> is served from the site root. Those are the findings that matter most for a Lovable or Bolt app.
          </p>

          <h3>Focused graders and template engines: HTTP Observatory and Nuclei</h3>
          <p>
            Mozilla&apos;s HTTP Observatory, now run by MDN, grades ten header tests and nothing else. It is free, fast and the de facto reference for header hygiene, which is why
            vibeeval computes an Observatory-compatible score and grade: your results are comparable. Nuclei is the opposite: a command-line engine with about 11,500 community
            templates, including exposures of AI-tool files such as <code>CLAUDE.md</code>, <code>.cursor/rules</code> and <code>AGENTS.md</code>, and SARIF output for CI. It is
            powerful but has no interface, and the results depend on the templates you pick.
          </p>

          <h3>Code-side tools: Snyk and Lovable Security Scan</h3>
          <p>
            Snyk and Lovable&apos;s built-in scan look at the code and the database rather than the running site. Snyk scans dependencies and source code in your repository and CI.
            Lovable&apos;s scan reads RLS policies and the schema, runs <code>npm audit</code>, and offers a deeper review by an AI agent. Both see problems an outside scanner
            cannot (an insecure policy on a table no page uses yet), but neither is documented as testing what only the deployed site shows: a served <code>.env</code> file,
            headers set by the host, a key injected at build time. Run one of them alongside an external scan, not instead of it.
          </p>

          <h3>Scanners made for vibe-coded apps</h3>
          <p>
            VibeAppScanner, FixVibe, VibeArmor and SecuriSky target the same audience as vibeeval and advertise checks for Supabase and exposed keys. They differ in breadth (27 to
            150+ checks), speed, and integration: VibeAppScanner and FixVibe expose MCP endpoints for AI agents, and FixVibe has an API and webhooks. Their public documentation
            rarely lists individual checks, so most of their security rows read Partial; that reflects what we could verify, not necessarily what they do.
          </p>

          <h2>Where vibeeval fits, and where it does not</h2>
          <p>
            vibeeval&apos;s strengths are the rows specific to AI-built apps (Supabase table exposure, key roles, AI-tool files), evidence for every finding, CI support with SARIF
            and <code>--fail-on</code>, and a desktop app that works without a cloud account, with API keys, signed webhooks and an MCP endpoint for AI coding agents. Its gaps are
            just as real: no source-code or dependency scanning, and only two opt-in active probes.
          </p>
          <p>
            One more caution: a Yes says a capability exists, not how well it works on your site. Two scanners that both &ldquo;detect exposed secrets&rdquo; can differ widely in
            which key formats they recognise and how many false alarms they raise. Before relying on any of them, try two or three on an app you know well, ideally a copy with a
            deliberately planted weakness such as a table without RLS, and see which ones find it.
          </p>
          <p>
            A practical combination for most teams: vibeeval on every deploy, a code-side tool in the repository, and ZAP or Burp before a major launch or when handling payments or
            health data. To set up the first part, see{' '}
            <Link asChild>
              <RouterLink to="/updates/vibe-friendly-testing">Testing that fits vibe coding</RouterLink>
            </Link>
            .
          </p>
        </ArticleBody>
      </Box>
    </ArticleLayout>
  );
}

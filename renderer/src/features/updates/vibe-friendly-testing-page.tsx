import { MONITORING } from '@common/marketing';
import { Link } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { ArticleBody, ArticleLayout, CodeBlock } from './article-layout';

const WORKFLOW = `name: Security scan
on:
  push:
    branches: [main]
jobs:
  vibeeval:
    runs-on: ubuntu-latest
    permissions:
      security-events: write   # upload-sarif needs it
    env:
      SITE_URL: \${{ vars.SITE_URL }}
    steps:
      - uses: actions/setup-node@v4
        with: { node-version: 22 }
      - name: Scan the deployed site
        run: npx vibeeval scan "$SITE_URL" --out vibeeval.sarif --fail-on high
      - name: Upload findings to code scanning
        if: \${{ !cancelled() && hashFiles('vibeeval.sarif') != '' }}
        uses: github/codeql-action/upload-sarif@v3
        with: { sarif_file: vibeeval.sarif, category: vibeeval }`;

/** /updates/vibe-friendly-testing */
export function VibeFriendlyTestingPage() {
  const minutes = MONITORING.minIntervalMs / 60_000;
  return (
    <ArticleLayout path="/updates/vibe-friendly-testing">
      <ArticleBody>
        <p>
          Classic testing advice assumes you wrote the code: you know which functions to unit-test, which edge cases you were unsure about, and which refactor might break the
          checkout. With an AI coding tool, a single prompt can rewrite twenty files you have never read. Tests that depend on the shape of the code break with every regeneration,
          and nobody fixes them. What survives is testing at the level you actually work at: what the app does in a browser, and what it exposes on the internet.
        </p>
        <p>This is the routine we recommend, and the one vibeeval is built around. It has four layers.</p>

        <h2>1. Describe behaviour in plain English</h2>
        <p>You already describe features in sentences when you prompt. Describe the tests the same way, as short scenarios with a goal and an observable result:</p>
        <ul>
          <li>&ldquo;Sign up with a new email address, create a project called Demo, and check it appears on the dashboard.&rdquo;</li>
          <li>&ldquo;Add two items to the cart, remove one, and check the total matches the remaining item&apos;s price.&rdquo;</li>
          <li>&ldquo;Sign in as the second test user, open the first user&apos;s invoice URL, and check that access is refused.&rdquo;</li>
        </ul>
        <p>
          Scenarios like these survive regeneration because they name things a user can see: labels, headings, messages, URLs. The last one is a security test written in English,
          and it catches the most common failure in AI-built apps, where the interface hides other users&apos; data but the backend happily returns it.
        </p>
        <p>
          The scenarios run in a real Chromium browser driven by Playwright, the same engine your visitors use, so client-side routing, authentication redirects and lazily loaded
          code behave exactly as in production, and an AI agent turns each sentence into browser actions and checks. AI browser test scenarios arrive in vibeeval in a later
          release; the scan, the reports and the CI support described below are available now.
        </p>
        <h3>Writing scenarios that stay useful</h3>
        <ul>
          <li>One goal per scenario. &ldquo;Sign up and buy a plan and cancel it&rdquo; is three scenarios.</li>
          <li>End with something checkable: a heading, a message, a URL, a number. &ldquo;Check it works&rdquo; is not.</li>
          <li>Use dedicated test accounts and data, never a real customer&apos;s.</li>
          <li>Include the unhappy paths: wrong password, empty form, another user&apos;s record.</li>
        </ul>

        <h2>2. Scan on every deploy</h2>
        <p>
          Functional scenarios tell you the app works. A security scan tells you what the deployed site exposes: readable database tables, keys in the bundle, a served{' '}
          <code>.env</code> file, missing headers, outdated libraries. Both can change with any prompt, so both belong on every deploy, not in a quarterly audit.
        </p>
        <p>
          vibeeval&apos;s command line scans a URL from a terminal or a CI job without a server or an account:{' '}
          <code>npx vibeeval scan https://your-app.example --fail-on high</code>. It crawls up to ten pages by default (<code>--pages</code> changes that), renders them in Chromium
          when one is installed so that single-page app routes are seen, and stays read-only unless you add <code>--active</code> on a site you own. Point it at preview deployments
          too: a scan of the preview URL catches a leaked key before it reaches production.
        </p>

        <h2>3. Make CI the gate: --fail-on and SARIF</h2>
        <p>
          A scan nobody reads is not a test. Two options make it one. <code>--fail-on</code> sets the severity that fails the job: the command exits with <code>1</code> when a
          finding is at or above that level, <code>0</code> when none is, and <code>2</code> when the site could not be scanned at all. The default is <code>high</code>, so the
          build stops on what must be fixed before release, not on hardening advice. Start there; move to <code>medium</code> once the backlog is clear, or use <code>none</code> to
          report without ever failing.
        </p>
        <p>
          SARIF 2.1.0 is the format GitHub code scanning and many other tools read. Writing the report as SARIF puts every finding, with its evidence and fix, into the
          repository&apos;s Security tab, where it is tracked across runs and closed automatically when a later scan no longer finds it. A complete GitHub Actions workflow:
        </p>
        <CodeBlock code={WORKFLOW} />
        <p>
          The upload step runs even when the scan step failed the build, so the findings that stopped the release are the ones you see. Code scanning is available for public
          repositories; private ones need GitHub&apos;s code security features enabled. On other CI systems the exit code works the same way, and <code>--format json</code> or{' '}
          <code>--out report.html</code> give a machine-readable result or a page to attach to the job.
        </p>

        <h2>4. Watch the live site between deploys</h2>
        <p>
          Vibe-coded apps are often changed outside any pipeline: someone edits a page in the builder and presses Publish. A CI gate never sees those changes. The monitoring script
          covers them. One script tag on your site computes a hash of each page&apos;s content in the visitor&apos;s browser and reports to vibeeval only when that hash changes, so
          a changed page triggers a new scan and a desktop notification.
        </p>
        <p>
          It is deliberately frugal: at least {minutes} minutes between checks, at most {MONITORING.maxRunsPerDay} runs per day (the count resets at midnight UTC), and a fresh
          report when the stored hash is more than {MONITORING.staleAfterHours} hours old. Only the hash and the hostname leave the page. The{' '}
          <Link asChild>
            <RouterLink to="/vibe-loop">Vibe Loop guide</RouterLink>
          </Link>{' '}
          shows the script tag and a live demo of the hash.
        </p>

        <h2>Putting the loop together</h2>
        <ol>
          <li>Describe what the app must do, and what it must refuse, as plain-English scenarios.</li>
          <li>Run the security scan against every preview and production deploy, failing on high-severity findings.</li>
          <li>Send SARIF to code scanning so findings are tracked, not lost in a log.</li>
          <li>Monitor the live site so changes made outside CI are scanned too.</li>
          <li>Fix, re-run, and let the next prompt go ahead.</li>
        </ol>
        <p>
          None of this asks you to read the generated code. It asks you to state what should be true and let the tools check it every time, which is the part of software
          engineering that vibe coding does not replace. If you are not sure what to look for first, start with{' '}
          <Link asChild>
            <RouterLink to="/updates/vibe-coding-apps">the security holes AI coding tools leave behind</RouterLink>
          </Link>
          .
        </p>
      </ArticleBody>
    </ArticleLayout>
  );
}

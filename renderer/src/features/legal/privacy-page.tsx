import { Heading, Icon, List, Stack, Text } from '@chakra-ui/react';
import { COOKIE_CONSENT_KEY, CONTACT, OWN_DOMAIN, mailto } from '@common/marketing';
import { CircleCheck } from 'lucide-react';
import { LegalDocument, type LegalSection } from './legal-document';

const highlights = [
  'The desktop app keeps your projects, scan results and reports on your own computer. We never receive them.',
  'A quick scan on our website needs only the URL and your email address, and we use them to email you the report.',
  'Scans read only what a site already serves to every visitor, and secrets found in a report are masked.',
  'We do not sell personal information, and analytics and marketing cookies stay off unless you turn them on.',
];

function Summary() {
  return (
    <Stack gap="3">
      <Heading as="h2" fontSize="md" fontWeight="semibold">
        The short version
      </Heading>
      <List.Root gap="2.5" variant="plain">
        {highlights.map((line) => (
          <List.Item key={line} alignItems="flex-start" color="fg">
            <List.Indicator asChild color="brand.fg" mt="1">
              <Icon boxSize="4" aria-hidden="true">
                <CircleCheck />
              </Icon>
            </List.Indicator>
            <Text>{line}</Text>
          </List.Item>
        ))}
      </List.Root>
    </Stack>
  );
}

const sections: LegalSection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are and what this covers',
    body: (
      <>
        <p>
          This policy explains what information vibeeval handles, where it is kept and what you can do about it. It covers the desktop app, the web app, the <code>vibeeval</code>{' '}
          command-line tool, the team server and the public website at {OWN_DOMAIN}. vibeeval is based in San Francisco, California, and is the controller of the personal
          information we collect on our website and hosted service.
        </p>
        <p>vibeeval is local-first: much of the product runs on your own machine and never sends us anything. The sections below say precisely which parts do and which do not.</p>
      </>
    ),
  },
  {
    id: 'desktop',
    title: 'The desktop app keeps your data on your machine',
    body: (
      <>
        <p>
          The desktop app needs no cloud account. It runs its backend on your computer and stores{' '}
          <strong>your projects, scan results, reports, test scenarios and activity in an embedded PostgreSQL database</strong> inside the app&rsquo;s data folder on that computer.
          Scans run from your workstation: requests go straight from your machine to the sites you test, not through our servers. We do not receive your projects, findings or
          reports, and we cannot read them.
        </p>
        <p>
          When you sign in to the desktop app, <strong>the session is kept in your operating system&rsquo;s keychain</strong> (Keychain on macOS, Credential Manager on Windows, the
          Secret Service on Linux), not in the app&rsquo;s web storage. Local account passwords are stored only as scrypt hashes.
        </p>
        <p>The command-line tool keeps nothing at all: it scans, writes the report you ask for, and exits.</p>
      </>
    ),
  },
  {
    id: 'web-and-team',
    title: 'The web app and team servers',
    body: (
      <>
        <p>
          In the web app, <strong>your browser keeps the sign-in session in its localStorage</strong> for the site you signed in to. Signing out removes it.
        </p>
        <p>
          A team can run the vibeeval server on its own infrastructure with its own PostgreSQL database and scan workers. In that case the team&rsquo;s data is stored on the
          team&rsquo;s servers and the organization running them decides how it is handled; contact your administrator for requests about that data. When you use a server we host,
          we store your account (email address and a password hash), your projects, scan results, reports, webhook settings and API keys you create, to provide the service to you.
        </p>
      </>
    ),
  },
  {
    id: 'quick-scan',
    title: 'Quick scans from our website',
    body: (
      <>
        <p>
          The quick scan form on our website <strong>collects the URL you want tested and your email address</strong>. We use the URL to run a read-only scan and the email address
          to <strong>mail you the report</strong>. We do not add you to a newsletter because you requested a report; we write to you about that scan, and send anything else only if
          you ask for it.
        </p>
        <p>
          Like any web server, ours records basic request logs (IP address, time, the page requested and the browser&rsquo;s user agent). We use them to keep the service running
          and to stop abuse of the scan form, such as scanning sites without permission.
        </p>
      </>
    ),
  },
  {
    id: 'what-scans-read',
    title: 'What a scan reads from the sites you test',
    body: (
      <>
        <p>
          A scan <strong>reads only what a site serves publicly</strong>, to anyone, without signing in: pages, scripts, stylesheets, source maps, well-known files and the answers
          to a few read-only probes. It identifies itself with a user agent that names the vibeeval scanner and limits how fast it sends requests.
        </p>
        <ul>
          <li>
            <strong>Secrets are masked.</strong> When a scan finds an API key, a token or a password in a site&rsquo;s code, the report shows only enough of it to recognise it (for
            example its first and last characters), never the full value.
          </li>
          <li>
            <strong>Exposed databases are measured, not copied.</strong> To check a Supabase table or a Firebase database, the scan asks whether it answers the public key and how
            many rows it holds, and keeps at most the column names it needs to rate the exposure, not the records.
          </li>
          <li>
            <strong>Evidence is kept short.</strong> Each finding stores the request, an excerpt of the response and the matched text so you can verify it, not a copy of the site.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies and your consent choices',
    body: (
      <>
        <p>
          Our website asks which optional cookies you accept. Your answer is <strong>saved only in your browser</strong>, in localStorage under the key{' '}
          <code>{COOKIE_CONSENT_KEY}</code>; it is not sent to our servers. To change it, open the cookie settings again or clear this site&rsquo;s data in your browser, and the
          banner will ask you again.
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col">Used for</th>
              <th scope="col">Default</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Necessary</td>
              <td>Signing in, security, remembering your consent choice</td>
              <td>Always on</td>
            </tr>
            <tr>
              <td>Analytics</td>
              <td>Counting visits and seeing which pages help, in aggregate</td>
              <td>Off until you opt in</td>
            </tr>
            <tr>
              <td>Marketing</td>
              <td>Measuring whether our campaigns bring visitors</td>
              <td>Off until you opt in</td>
            </tr>
          </tbody>
        </table>
      </>
    ),
  },
  {
    id: 'payments-and-email',
    title: 'Payments and email',
    body: (
      <>
        <p>
          Subscriptions and Lifetime Pro purchases are paid on a hosted checkout page run by our payment provider. The provider processes your card details; we receive your email
          address, the plan, the amount and the payment status, never your full card number.
        </p>
        <p>
          We send transactional email: scan reports you requested, password recovery links, receipts and notices about your account. A team server sends its mail through whatever
          mail server its administrator configured.
        </p>
      </>
    ),
  },
  {
    id: 'sharing',
    title: 'Who we share information with',
    body: (
      <>
        <p>We do not sell or rent personal information. We share it only:</p>
        <ul>
          <li>with service providers that host our website and servers, deliver our email and process payments, under contracts that limit their use of it to serving us;</li>
          <li>when the law requires it, or to protect people and systems from harm, including investigating scans made without authorization;</li>
          <li>with a buyer or successor if vibeeval is involved in a merger or acquisition, under this policy.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <ul>
        <li>
          <strong>Desktop app:</strong> until you delete it. Deleting a project removes its scans and reports; uninstalling the app and removing its data folder removes everything.
        </li>
        <li>
          <strong>Quick scan requests:</strong> the URL, email address and report for 90 days, then deleted.
        </li>
        <li>
          <strong>Hosted accounts:</strong> while your account is open. After you close it, we delete your data within 30 days, and from backups within a further 30 days.
        </li>
        <li>
          <strong>Server logs:</strong> up to 30 days. <strong>Billing records:</strong> as long as tax law requires.
        </li>
      </ul>
    ),
  },
  {
    id: 'rights',
    title: 'Your rights',
    body: (
      <>
        <p>Wherever you live, you can ask us to:</p>
        <ul>
          <li>
            <strong>access</strong> the personal information we hold about you and receive a copy;
          </li>
          <li>
            <strong>correct</strong> it if it is wrong;
          </li>
          <li>
            <strong>delete</strong> it, including quick scan requests made with your email address;
          </li>
          <li>
            <strong>object</strong> to or restrict a use of it, and withdraw a consent you gave.
          </li>
        </ul>
        <p>
          Write to <a href={mailto(CONTACT.privacy, 'Privacy request')}>{CONTACT.privacy}</a> from the email address concerned. We answer within 30 days and do not charge for it.
          Residents of the European Economic Area, the UK and California have these rights by law and may also complain to their data protection authority. For data kept by the
          desktop app, you already hold it: you can export reports from the app and delete projects, or the data folder, yourself.
        </p>
      </>
    ),
  },
  {
    id: 'security',
    title: 'How we protect it',
    body: (
      <p>
        Traffic to our services is encrypted with TLS. Passwords are stored as scrypt hashes, per-install secrets are readable only by the account that runs the server, and
        sessions are short-lived with rotating refresh tokens. No system is perfectly secure; if we learn of a breach that affects your information, we will tell you without undue
        delay.
      </p>
    ),
  },
  {
    id: 'children-and-transfers',
    title: 'Children and international transfers',
    body: (
      <p>
        vibeeval is a tool for developers and is not directed at children under 16; we do not knowingly collect their information. Our hosted services run in the United States.
        When we transfer personal information from the EEA or the UK, we rely on the European Commission&rsquo;s standard contractual clauses or another lawful mechanism.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        We will post any update on this page with a new effective date. If a change materially affects how we use information we already hold, we will tell account holders by email
        or in the app before it applies.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        For any question or request about privacy, write to <a href={mailto(CONTACT.privacy, 'Privacy question')}>{CONTACT.privacy}</a>.
      </p>
    ),
  },
];

/** /privacy */
export function PrivacyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      intro="What vibeeval collects, what stays on your own machine, and the choices you have. Written to match how the product actually works."
      summary={<Summary />}
      sections={sections}
    />
  );
}

import { Link } from '@chakra-ui/react';
import { CONTACT, MARKETING_PLANS, OWN_DOMAIN, mailto } from '@common/marketing';
import { Link as RouterLink } from 'react-router-dom';
import { planById, planPrice } from '../../ui/format';
import { LegalDocument, type LegalSection } from './legal-document';

const basic = planById(MARKETING_PLANS, 'basic');
const pro = planById(MARKETING_PLANS, 'pro');
const lifetime = planById(MARKETING_PLANS, 'lifetime');

const sections: LegalSection[] = [
  {
    id: 'scope',
    title: 'What these terms cover',
    body: (
      <>
        <p>
          These Terms of Use are an agreement between you and vibeeval (&ldquo;vibeeval&rdquo;, &ldquo;we&rdquo;, &ldquo;us&rdquo;). They apply to the vibeeval desktop app, the web
          app, the <code>vibeeval</code> command-line tool, the team server you can run yourself, and the public website at {OWN_DOMAIN} (together, the &ldquo;Service&rdquo;).
        </p>
        <p>
          vibeeval scans websites for security problems, with a focus on apps built with AI coding tools such as Lovable, Bolt, v0, Cursor and Replit, and runs browser test
          scenarios against them. By creating an account, installing the app, running a scan or submitting a URL on our website, you accept these terms. If you use the Service for
          a company, you accept them on its behalf and confirm you may do so.
        </p>
      </>
    ),
  },
  {
    id: 'authorization',
    title: 'You may only test what you are allowed to test',
    body: (
      <>
        <p>
          <strong>You must own, or have written permission to test, every domain and URL you submit to vibeeval.</strong> This applies to every way of starting a scan: a project in
          the app, the command line, the API, a CI job, a scheduled or continuous test, and the quick scan form on our website.
        </p>
        <p>
          &ldquo;Written permission&rdquo; means an authorization from the owner of the system (for example a client contract, a statement of work or a bug bounty scope) that
          covers automated security testing of that address. Keep it for as long as you keep testing, and be ready to show it to us if a site owner complains. Permission to edit an
          app in an AI builder does not by itself mean permission to test the domain it is deployed on if someone else owns that domain.
        </p>
        <p>
          Security testing without authorization can be illegal, including under the US Computer Fraud and Abuse Act and similar laws elsewhere. You alone are responsible for
          having the right to test the sites you submit.
        </p>
      </>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <>
        <p>
          vibeeval is built to look at a site the way any visitor can, and nothing more. Its checks are <strong>read-only by default</strong>: it fetches pages, scripts,
          stylesheets and source maps, and sends a small number of GET, HEAD and OPTIONS probes (for example to see whether a <code>.env</code> file or a <code>.git</code> folder
          is served, or whether a Supabase table answers the public anon key). It does not submit forms, create accounts or write data.
        </p>
        <p>
          <strong>Active probes run only when you explicitly opt in</strong>, for example with the <code>--active</code> flag of the command-line tool. They send a harmless marker
          to detect reflected cross-site scripting and a test target to detect open redirects. Turn them on only for sites you own or are authorized to test actively.
        </p>
        <p>When you use the Service, you agree not to:</p>
        <ul>
          <li>scan, probe or monitor any site, API or database you do not own and are not authorized to test;</li>
          <li>
            attempt to disrupt, overload or degrade any system, including by raising request rates to stress a site or by running many scans in parallel against the same host;
          </li>
          <li>use a finding to go further than confirming it, such as downloading the contents of an exposed table, using a leaked key, or signing in with leaked credentials;</li>
          <li>scan {OWN_DOMAIN} or our infrastructure, or try to get around the limits and address checks built into the Service;</li>
          <li>resell scans, reports or access to the Service as your own product without a written agreement with us;</li>
          <li>use the Service to break any law or anyone&rsquo;s rights.</li>
        </ul>
        <p>
          If you find a vulnerability in vibeeval itself, please tell us at <a href={mailto(CONTACT.support, 'Security report')}>{CONTACT.support}</a> instead of testing it
          further. We will not pursue good-faith research that follows this request.
        </p>
      </>
    ),
  },
  {
    id: 'quick-scans',
    title: 'Public quick scans on our website',
    body: (
      <>
        <p>
          Our website lets anyone request a free quick scan by entering a URL and an email address. We run a read-only scan of that URL and email the report to the address you
          give. The authorization rule in section 2 applies in full: only submit a site you own or may test, and only an email address you control.
        </p>
        <p>
          We may refuse or stop a quick scan at our discretion, for example for our own domain, for addresses on private networks, for the editor URL of an AI builder instead of
          the deployed app, or when we see signs of abuse. Quick scans are limited in depth compared with the app, and the emailed report is a summary that may omit details.
        </p>
      </>
    ),
  },
  {
    id: 'accounts',
    title: 'Accounts',
    body: (
      <>
        <p>
          Some features need an account. In the desktop app, the account lives in the local database on your computer; on a team server it lives in that server&rsquo;s database; on
          our hosted service it lives with us. Give accurate information, keep your password and API keys secret, and tell us promptly if you think someone else has used your
          account. You are responsible for what happens under your account and your API keys, including scans started by your CI jobs and webhooks.
        </p>
        <p>
          If you run a team server, you are responsible for who you give accounts to and for making sure each of them follows these terms. We may suspend or close an account that
          breaks these terms, in particular section 2 or section 3.
        </p>
      </>
    ),
  },
  {
    id: 'plans',
    title: 'Subscriptions, trials and refunds',
    body: (
      <>
        <p>Paid plans are sold through a hosted checkout page. Prices are in US dollars and exclude taxes, which are added where required.</p>
        <ul>
          <li>
            <strong>
              {basic.name} ({planPrice(basic)}) and {pro.name} ({planPrice(pro)})
            </strong>{' '}
            are monthly subscriptions. Each starts with a {basic.trialDays}-day free trial. If you cancel before the trial ends, you are not charged. After the trial, the
            subscription renews every month until you cancel.
          </li>
          <li>
            <strong>You can cancel at any time</strong> from the billing page. Cancellation takes effect at the end of the current billing month, and you keep access until then. We
            do not refund partial months, except where the law requires it.
          </li>
          <li>
            <strong>
              {lifetime.name} ({planPrice(lifetime)})
            </strong>{' '}
            is a single payment for the {lifetime.name} features for as long as we offer the product, with no renewal. It comes with a {lifetime.moneyBackDays}-day money-back
            guarantee: ask for a refund within {lifetime.moneyBackDays} days of purchase by writing to{' '}
            <a href={mailto(CONTACT.support, 'Lifetime Pro refund')}>{CONTACT.support}</a> and we will refund the full price, no questions asked.
          </li>
          <li>
            We may change prices for future billing periods. We will tell subscribers at least 30 days before a new price applies to them, and a price change never affects a{' '}
            {lifetime.name} purchase already made.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'your-data',
    title: 'Your data and reports',
    body: (
      <>
        <p>
          Projects, scan results and reports are yours. The desktop app keeps them in an embedded database on your computer; we do not receive them. On a team server they are kept
          in that server&rsquo;s database. When you use our hosted service or the quick scan, you allow us to store and process that data only to provide the Service to you, as
          described in our{' '}
          <Link asChild>
            <RouterLink to="/privacy">Privacy Policy</RouterLink>
          </Link>
          .
        </p>
        <p>
          Reports describe weaknesses of real sites. Share them only with people who need them to fix the problems, and remember that a report you export (HTML, PDF, CSV, JSON or
          SARIF) is outside our control once it leaves the app.
        </p>
      </>
    ),
  },
  {
    id: 'software',
    title: 'The software',
    body: (
      <>
        <p>
          While you follow these terms and your plan is active, we grant you a personal, non-exclusive, non-transferable licence to install and use the desktop app, the
          command-line tool and the team server for your own testing and your clients&rsquo; projects. You may not remove our notices, or copy, sell or redistribute the software
          except as these terms allow.
        </p>
        <p>
          vibeeval includes open-source components that remain under their own licences. Vulnerability data about JavaScript libraries comes in part from public advisory databases
          and is provided as received.
        </p>
      </>
    ),
  },
  {
    id: 'disclaimers',
    title: 'Disclaimers',
    body: (
      <>
        <p>
          <strong>No scan finds every issue.</strong> vibeeval runs automated checks against what a site serves publicly at the moment of the scan. It can miss vulnerabilities,
          especially in server-side logic, behind sign-in, or in parts of a site it could not reach, and it can report issues that turn out not to matter in your context. A clean
          report or a high grade is not a certification, an audit or a guarantee that a site is secure, and it does not replace a review by a qualified security professional.
        </p>
        <p>
          Remediation advice is general guidance. Test any change before you deploy it. The Service is provided &ldquo;as is&rdquo; and &ldquo;as available&rdquo;, without
          warranties of any kind, express or implied, including merchantability, fitness for a particular purpose and non-infringement, to the extent the law allows.
        </p>
      </>
    ),
  },
  {
    id: 'liability',
    title: 'Limitation of liability',
    body: (
      <>
        <p>
          To the extent the law allows, vibeeval is not liable for indirect, incidental, special, consequential or punitive damages, or for lost profits, revenue, data or goodwill,
          arising from your use of the Service, including a security incident that a scan did not detect.
        </p>
        <p>
          Our total liability for any claim related to the Service is limited to the greater of the amount you paid us in the 12 months before the claim and US$100. Some
          jurisdictions do not allow these limits, in which case they apply only as far as allowed.
        </p>
        <p>You agree to defend and indemnify vibeeval against claims by third parties arising from sites you scanned without authorization or from your breach of these terms.</p>
      </>
    ),
  },
  {
    id: 'termination',
    title: 'Ending the agreement',
    body: (
      <p>
        You can stop using the Service and delete your account at any time. We may suspend or end your access if you break these terms, if the law requires it, or if we stop
        offering the Service, in which case we will give reasonable notice and refund any prepaid period you can no longer use. Sections 7, 9, 10 and 12 survive the end of this
        agreement.
      </p>
    ),
  },
  {
    id: 'governing-law',
    title: 'Governing law',
    body: (
      <p>
        These terms are governed by the laws of the State of California, USA, without regard to its conflict-of-laws rules. Any dispute will be heard by the state or federal courts
        located in San Francisco County, California, and you and we consent to their jurisdiction. Nothing here removes rights you have as a consumer under the laws of the country
        where you live.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We may update these terms as the product changes. We will post the new version on this page with a new effective date and, for changes that materially affect your rights,
        tell account holders by email or in the app at least 14 days before they apply. If you keep using the Service after that, the new terms apply; if you do not agree, stop
        using the Service and cancel your subscription.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about these terms, or a report that someone is using vibeeval against a site without permission:{' '}
        <a href={mailto(CONTACT.legal, 'Terms of Use')}>{CONTACT.legal}</a>.
      </p>
    ),
  },
];

/** /terms */
export function TermsPage() {
  return (
    <LegalDocument
      title="Terms of Use"
      intro="The rules for using vibeeval: what you may scan, how plans and refunds work, and what a security scan can and cannot promise."
      sections={sections}
    />
  );
}

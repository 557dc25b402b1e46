import { CONTACT } from '@common/marketing';

/** One question of the FAQ tab, with the links to the places its answer describes. */
export interface FaqEntry {
  id: string;
  question: string;
  answer: string;
  links: { label: string; to: string }[];
}

/**
 * The texts of /dashboard/support (spec section 2, Support): a Contact tab with the support email and the reply
 * time ('reply within 24 hours on business days'), and a FAQ tab on creating a project, integrating through
 * webhooks or the API, and upgrading the plan in Account settings, Billing.
 */
export const texts = {
  title: 'Support',
  subtitle: 'Questions about scans, projects or your plan? We are here to help.',
  tabs: { contact: 'Contact', faq: 'FAQ' },
  contactTitle: 'Contact support',
  contactIntro: 'Email our support team and tell us what you were doing and what you expected to happen.',
  email: CONTACT.support,
  emailLabel: 'Support email',
  emailSubject: 'Support request',
  replyTime: 'We reply within 24 hours on business days.',
  faqTitle: 'Frequently asked questions',
  faq: [
    {
      id: 'create-project',
      question: 'How do I create a project?',
      answer:
        'Open Projects and choose New Project. Give the project a name and the URL of the site you want to test and, if you like, a description, instructions for the test and the test accounts it may sign in with; then run a test from the project to see its findings.',
      links: [{ label: 'Go to Projects', to: '/dashboard/projects' }],
    },
    {
      id: 'integrate',
      question: 'How do I integrate vibeeval with my tools?',
      answer:
        'Use webhooks to have scan, scenario and build results sent to your own endpoint as they finish, or create an API key to start scans and read their results from CI jobs, scripts and AI coding agents.',
      links: [
        { label: 'Set up webhooks', to: '/dashboard/webhook' },
        { label: 'Open the API', to: '/dashboard/api' },
      ],
    },
    {
      id: 'upgrade',
      question: 'How do I upgrade my plan?',
      answer:
        'Go to Account settings, Billing (Plan & Billing). Compare Plans shows what each plan includes; under My Subscription, choose Change Plan (or Choose a Plan) and pick the plan you want. Upgrades take effect immediately; downgrades and cancellations take effect at the end of the current billing cycle.',
      links: [{ label: 'Open Billing', to: '/dashboard/billing' }],
    },
  ] satisfies FaqEntry[],
} as const;

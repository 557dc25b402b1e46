import { DOMAIN_TEXTS } from '@common/domains';

/** The texts of the Domains section (Settings > Members): the workspace's domains and how to verify each. */
export const texts = {
  title: 'Domains',
  intro:
    'On a shared server, active mode (probes that act on a site, such as one throwaway sign-up) runs only on domains this workspace has verified, and their subdomains. Prove a domain is yours in one of two ways, then press Verify.',
  domainLabel: 'Domain',
  domainPlaceholder: 'example.com',
  add: 'Add domain',
  added: 'Domain added',
  empty: 'No domains yet',
  emptyHint: 'Add the domain of a site you scan to verify it.',
  loadMore: 'Load more domains',
  retry: 'Retry',
  stateLabels: { pending: 'Not verified yet', verified: 'Verified', failed: 'Not verified' } as const,
  httpWay: 'Serve this token as a plain-text file at',
  dnsWay: 'Or publish this DNS TXT record on the domain',
  token: 'Token',
  verify: 'Verify',
  verified: 'Domain verified',
  notVerified: 'Domain not verified',
  remove: 'Remove',
  removed: 'Domain removed',
  removeTitle: 'Remove domain',
  removeQuestion: 'Active scans of this domain will run passive on a shared server until it is added and verified again.',
  lastCheck: 'Last check',
  ...DOMAIN_TEXTS,
} as const;

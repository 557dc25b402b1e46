import { formatRequest, formatResponse, isLoopback } from '../analysis/probe-answers';
import { defineCheck, type FindingDraft } from '../types';

const ID = 'form-posts-to-http';

export const formPostsToHttp = defineCheck({
  id: ID,
  family: 'forms',
  title: 'Form on an HTTPS page submits over HTTP',
  severity: 'medium',
  confidence: 'high',
  cwe: 319,
  owasp: 'A04',
  description: 'Reports forms on HTTPS pages whose action is an http:// URL, so the submitted data travels unencrypted (high when the form has a password field).',
  remediation: 'Change the form action to an https:// URL (or a relative URL) and make sure the receiving endpoint is only reachable over HTTPS.',
  references: ['https://cwe.mitre.org/data/definitions/319.html', 'https://www.zaproxy.org/docs/alerts/10041/'],
  run(site) {
    const findings: FindingDraft[] = [];
    for (const page of site.pages) {
      if (!page.html || new URL(page.exchange.finalUrl).protocol !== 'https:') continue;
      for (const form of page.html.forms) {
        let action: URL;
        try {
          action = new URL(form.action);
        } catch {
          continue;
        }
        if (action.protocol !== 'http:' || isLoopback(action.hostname)) continue;
        const password = form.inputs.some((input) => input.type === 'password');
        const names = form.inputs.map((input) => input.name).filter(Boolean);
        findings.push({
          url: page.url,
          key: form.action,
          severity: password ? 'high' : 'medium',
          detail: `A ${form.method.toUpperCase()} form on ${page.url} submits to ${form.action} over plain HTTP${password ? ', including a password' : ''}${names.length ? ` (fields: ${names.slice(0, 8).join(', ')})` : ''}.`,
          evidence: {
            request: formatRequest(page.exchange),
            response: formatResponse(page.exchange, { headers: ['content-type'], excerpt: `<form method="${form.method}" action="${form.action}">` }),
            match: `action="${form.action}"`,
          },
        });
      }
    }
    return findings;
  },
});

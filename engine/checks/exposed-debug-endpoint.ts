import { excerptAround, exchangeEvidence, pathProbes, usableAnswers } from '../analysis/probe-answers';
import { defineCheck, type FindingDraft, type Severity } from '../types';

const ID = 'exposed-debug-endpoint';

interface Endpoint {
  path: string;
  name: string;
  severity: Severity;
  /** Content that only this endpoint produces. */
  proof: (body: string) => RegExpExecArray | null;
  why: string;
}

const ENDPOINTS: readonly Endpoint[] = [
  {
    path: '/server-status',
    name: 'Apache mod_status',
    severity: 'medium',
    proof: (body) => /Apache Server Status for [^<\n]*/.exec(body),
    why: 'it lists client IP addresses, requested URLs (with query strings) and server internals in real time',
  },
  {
    path: '/phpinfo.php',
    name: 'phpinfo()',
    severity: 'high',
    proof: (body) =>
      /<title>phpinfo\(\)<\/title>/i.test(body) || /class="e">PHP Version/.test(body) ? /PHP Version[^<\n]*(?:<\/[a-z0-9]+>\s*<[^>]+>\s*)?[^<\n]*/i.exec(body) : null,
    why: 'it shows the PHP configuration, loaded modules, paths and environment variables, which often include credentials',
  },
  {
    path: '/info.php',
    name: 'phpinfo()',
    severity: 'high',
    proof: (body) =>
      /<title>phpinfo\(\)<\/title>/i.test(body) || /class="e">PHP Version/.test(body) ? /PHP Version[^<\n]*(?:<\/[a-z0-9]+>\s*<[^>]+>\s*)?[^<\n]*/i.exec(body) : null,
    why: 'it shows the PHP configuration, loaded modules, paths and environment variables, which often include credentials',
  },
  {
    path: '/actuator/env',
    name: 'Spring Boot actuator env',
    severity: 'high',
    proof: (body) => (/"propertySources"\s*:/.test(body) ? /"activeProfiles"\s*:\s*\[[^\]]*\]/.exec(body) : null),
    why: 'it returns the application environment and configuration properties; secrets are masked only partially and some versions leak them',
  },
  {
    path: '/actuator',
    name: 'Spring Boot actuator',
    severity: 'medium',
    proof: (body) => (/"_links"\s*:/.test(body) ? /"self"\s*:\s*\{\s*"href"\s*:\s*"[^"]*\/actuator"/.exec(body) : null),
    why: 'it lists management endpoints (env, heapdump, mappings, loggers) that may be reachable too',
  },
  {
    path: '/elmah.axd',
    name: 'ELMAH error log',
    severity: 'high',
    proof: (body) => (/ELMAH/.test(body) ? /Error Log for [^<\n]*/.exec(body) : null),
    why: 'it shows every unhandled exception with request details, cookies and server variables',
  },
  {
    path: '/debug/pprof/',
    name: 'Go pprof',
    severity: 'medium',
    proof: (body) => /Types of profiles available:/.exec(body),
    why: 'it exposes goroutine dumps, command-line arguments and heap profiles, and lets anyone trigger CPU profiling',
  },
];

export const exposedDebugEndpoint = defineCheck({
  id: ID,
  family: 'exposed-files',
  title: 'Debug or status endpoint exposed',
  severity: 'medium',
  confidence: 'high',
  cwe: 215,
  owasp: 'A02',
  description:
    'Requests well-known status and debug endpoints (Apache server-status, phpinfo, Spring Boot actuator, ELMAH, Go pprof) and reports those that answer with their own content.',
  remediation:
    'Disable debug endpoints in production or restrict them to an internal network or authenticated administrators (e.g. management.endpoints.web.exposure.include=health for Spring Boot).',
  references: [
    'https://cwe.mitre.org/data/definitions/215.html',
    'https://docs.spring.io/spring-boot/reference/actuator/endpoints.html',
    'https://httpd.apache.org/docs/2.4/mod/mod_status.html',
  ],
  probes: (site) =>
    pathProbes(
      ID,
      site,
      ENDPOINTS.map(({ path }) => path),
    ),
  run(site) {
    const findings: FindingDraft[] = [];
    for (const { path, answer } of usableAnswers(
      site,
      ID,
      ENDPOINTS.map(({ path: p }) => p),
    )) {
      const endpoint = ENDPOINTS.find((candidate) => candidate.path === path)!;
      const match = endpoint.proof(answer.body);
      if (!match) continue;
      findings.push({
        url: answer.url,
        key: path,
        severity: endpoint.severity,
        detail: `${path} serves the ${endpoint.name} page publicly; ${endpoint.why}.`,
        evidence: exchangeEvidence(
          answer,
          match[0]
            .replace(/<[^<>]+>/g, ' ')
            .replace(/\s+/g, ' ')
            .slice(0, 200),
          { excerpt: excerptAround(answer.body, match.index) },
        ),
      });
    }
    return findings;
  },
});

import { SEVERITY_RANK, type Finding, type ScanResult, type Severity, type SuppressedFinding } from '../../common/scan';
import { DECISION_LABELS } from '../../common/triage';
import { coverageFacts, coverageGaps, coverageIncomplete } from '../../common/scan-coverage';
import { PRODUCT_NAME, PRODUCT_URL, cweUrl, owaspLabel, sortFindings, targetHost } from './format';
import { baselineState, type ReportChanges } from './changes';

/** Score GitHub code scanning maps to its own levels (> 9.0 critical, 7.0-8.9 high, 4.0-6.9 medium, 0.1-3.9 low). */
export const SECURITY_SEVERITY: Record<Severity, string> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  info: '0.0',
};

type SarifLevel = 'error' | 'warning' | 'note';
const LEVEL: Record<Severity, SarifLevel> = { critical: 'error', high: 'error', medium: 'warning', low: 'note', info: 'note' };

// GitHub truncates or rejects longer texts (docs: "SARIF support for code scanning").
const MAX_DESCRIPTION = 1024;
const MAX_NAME = 255;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** GitHub rejects empty strings in required properties. */
function nonEmpty(text: string, fallback: string): string {
  return text.trim() === '' ? fallback : text;
}

/**
 * The artifact URI of a finding: the URL without its scheme ("vibeshop.example.com/.env"), as a relative reference.
 * Why not the URL itself: GitHub resolves absolute artifact URIs against the checkout (file://) and rejects the
 * whole upload when the schemes differ ("SARIF URI scheme "https" did not match the checkout URI scheme "file"",
 * github/codeql-action#754). The full URL stays in the location's message and the result's properties.
 */
export function artifactUri(url: string): string {
  try {
    const parsed = new URL(url);
    // The host is percent-encoded so a port's colon (or an IPv6 literal) cannot read as a URI scheme.
    return `${encodeURIComponent(parsed.host)}${parsed.pathname}${parsed.search}`;
  } catch {
    const cleaned = encodeURIComponent(url.replace(/^[a-z][a-z0-9+.-]*:\/*/i, ''));
    return cleaned === '' ? 'unknown' : cleaned;
  }
}

/** An http(s) reference as a well-formed URI (new URL percent-encodes quotes and spaces), or null. */
function webUri(reference: string): string | null {
  try {
    const url = new URL(reference);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function ruleHelp(finding: Finding): { text: string; markdown: string } {
  const refs = finding.references.map(webUri).filter((ref): ref is string => ref !== null);
  const taxonomy = [owaspLabel(finding.owasp), finding.cwe === null ? null : `CWE-${finding.cwe}`].filter(Boolean).join(', ');
  const text = [finding.remediation, `Category: ${taxonomy}.`, ...(refs.length ? ['References:', ...refs] : [])].join('\n');
  const markdown = [
    `## ${finding.title}`,
    '',
    '### Remediation',
    '',
    finding.remediation,
    '',
    `**Category:** ${owaspLabel(finding.owasp)}${finding.cwe === null ? '' : ` · [CWE-${finding.cwe}](${cweUrl(finding.cwe)})`}`,
    ...(refs.length ? ['', '### References', '', ...refs.map((ref) => `- <${ref}>`)] : []),
  ].join('\n');
  return { text: nonEmpty(text, finding.title), markdown };
}

/** A decision as SARIF 2.1.0 §3.35: made outside the code (`external`), accepted, with the reason as justification. */
function sarifSuppression(finding: SuppressedFinding) {
  const { decision, reason, expires_at } = finding.suppression;
  return {
    kind: 'external',
    status: 'accepted',
    justification: `${DECISION_LABELS[decision]}: ${reason}`,
    properties: { decision, ...(expires_at ? { expiresAt: expires_at } : {}) },
  };
}

/** A finding fixed since the previous scan, as the run's property bag lists it. */
function fixedEntry(finding: Finding) {
  return { ruleId: finding.checkId, title: nonEmpty(finding.title, finding.checkId), url: finding.url, fingerprint: finding.fingerprint };
}

/**
 * SARIF 2.1.0 log for GitHub code scanning and other SARIF consumers: one run, one rule per check. `changes`: each
 * result's baselineState ('new' or 'unchanged') against the project's previous scan, and the findings fixed since
 * listed in the run's property bag (`fixedSincePreviousScan`), not as results: SARIF would allow them as results
 * with baselineState 'absent', but GitHub code scanning reads every result as an open alert, and an alert closes
 * when its result is gone from the upload.
 */
export function renderSarif(result: ScanResult, changes?: ReportChanges): string {
  // Suppressed findings stay results, each with SARIF's `suppressions` (GitHub shows them as dismissed).
  const findings: Array<Finding | SuppressedFinding> = [...sortFindings(result.findings), ...sortFindings(result.suppressed ?? [])];

  // One rule per check; the rule takes the most severe and most confident finding's metadata.
  const ruleFindings = new Map<string, Finding>();
  for (const finding of findings) {
    const seen = ruleFindings.get(finding.checkId);
    if (!seen || SEVERITY_RANK[finding.severity] > SEVERITY_RANK[seen.severity]) ruleFindings.set(finding.checkId, finding);
  }
  const ruleIds = [...ruleFindings.keys()];
  const rules = ruleIds.map((id) => {
    const f = ruleFindings.get(id)!;
    const title = nonEmpty(f.title, id);
    const tags = ['security', f.family, `owasp-2025/${f.owasp.toLowerCase()}`];
    if (f.cwe !== null) tags.push(`external/cwe/cwe-${f.cwe}`);
    return {
      id,
      name: clip(title, MAX_NAME),
      shortDescription: { text: clip(title, MAX_DESCRIPTION) },
      fullDescription: {
        text: clip(`${title}. ${owaspLabel(f.owasp)}${f.cwe === null ? '' : `, CWE-${f.cwe}`}.`, MAX_DESCRIPTION),
      },
      helpUri: f.references.map(webUri).find((ref) => ref !== null) ?? (f.cwe !== null ? cweUrl(f.cwe) : PRODUCT_URL),
      help: ruleHelp(f),
      defaultConfiguration: { level: LEVEL[f.severity] },
      properties: {
        tags,
        precision: f.confidence,
        'security-severity': SECURITY_SEVERITY[f.severity],
      },
    };
  });

  const results = findings.map((f) => {
    const state = changes ? baselineState(f, changes) : undefined;
    const title = nonEmpty(f.title, f.checkId);
    return {
      ruleId: f.checkId,
      ruleIndex: ruleIds.indexOf(f.checkId),
      level: LEVEL[f.severity],
      message: { text: nonEmpty(`${title.replace(/\.$/, '')}. ${f.detail}`.trim(), title) },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: artifactUri(f.url) },
            // A URL has no lines; GitHub lists startLine as required, so the alert points at the first one.
            region: { startLine: 1 },
          },
          message: { text: nonEmpty(f.url, result.target.url) },
        },
      ],
      partialFingerprints: {
        'vibeevalFingerprint/v1': f.fingerprint,
        // The only fingerprint GitHub reads; the engine's is stable across scans, so alerts are matched across runs.
        primaryLocationLineHash: `${f.fingerprint}:1`,
      },
      properties: {
        severity: f.severity,
        confidence: f.confidence,
        url: f.url,
        ...(f.evidence.match ? { evidence: f.evidence.match } : {}),
      },
      ...('suppression' in f ? { suppressions: [sarifSuppression(f)] } : {}),
      ...(state ? { baselineState: state } : {}),
    };
  });

  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: PRODUCT_NAME,
            informationUri: PRODUCT_URL,
            semanticVersion: result.engineVersion,
            version: result.engineVersion,
            rules,
          },
        },
        // The category lets one repository hold the scans of several sites (GitHub: runAutomationDetails.id).
        automationDetails: { id: `${PRODUCT_NAME}/${targetHost(result)}/` },
        invocations: [
          {
            executionSuccessful: true,
            startTimeUtc: result.startedAt,
            endTimeUtc: result.finishedAt,
            toolExecutionNotifications: [
              ...result.warnings.map((warning) => ({ level: 'warning', message: { text: warning } })),
              // What could not be checked reaches CI logs as notes, so an empty run is not read as a clean site.
              ...coverageGaps(result.coverage).map((gap) => ({ level: 'note', message: { text: `Not checked: ${gap}` } })),
            ],
          },
        ],
        results,
        properties: {
          target: result.target.url,
          finalUrl: result.target.finalUrl,
          score: result.score,
          grade: result.grade,
          headerGrade: result.headers.grade,
          ...(result.suppressed?.length ? { suppressed: result.suppressed.length } : {}),
          ...(changes ? { fixedSincePreviousScan: sortFindings(changes.fixed).map(fixedEntry) } : {}),
          ...(result.coverage ? { coverage: { ...result.coverage, complete: !coverageIncomplete(result.coverage), summary: coverageFacts(result.coverage) } } : {}),
        },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

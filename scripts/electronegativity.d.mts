export interface Finding {
  check: string;
  severity: string;
  /** Relative to the project root with '/' separators, or 'N/A' for a whole-project check. */
  file: string;
  line: number;
  column: number;
  description: string;
}

export interface AcceptedFinding {
  check: string;
  file: string;
  count: number;
  reason: string;
}

export interface AuditConfig {
  inputs: string[];
  excludedChecks?: { check: string; reason: string }[];
  accepted?: AcceptedFinding[];
}

export interface AuditResult {
  findings: Finding[];
  unexplained: Finding[];
  stale: AcceptedFinding[];
  unreadable: { file: string; message: string }[];
}

/** Splits findings into unexplained ones and accepted entries that explain nothing any more. */
export function reconcile(findings: Finding[], accepted: AcceptedFinding[]): { unexplained: Finding[]; stale: AcceptedFinding[] };

/** Reads and checks electronegativity.json (or `file`). */
export function readConfig(file?: string): AuditConfig;

/** Runs electronegativity over the config's inputs under `root`. */
export function audit(root: string, config: AuditConfig): Promise<AuditResult>;

// A desktop notice: what one is, and what main knows to word it.

/** A native notification to show, and the project a click opens. */
export interface DesktopNotice {
  /** Stable across reconnects: the same event replayed gives the same key. */
  key: string;
  title: string;
  body: string;
  projectId: string;
  /** The app page a click opens; the project's page when absent. */
  path?: string;
}

/** What main knows about projects and scenarios (from the API), for the texts and the click target. */
export interface NoticeContext {
  /** The site (URL or name) of a project, if known. */
  siteOf(projectId: string): string | undefined;
  /** The project and name of a scenario, if known. */
  scenarioOf(scenarioId: string): { projectId: string; name: string } | undefined;
  /**
   * What a completed scan changed since the project's previous scan (new and fixed findings): null for a first
   * scan, undefined when not known (a re-scan's notice then goes out without it).
   */
  changesOf?(scanId: string): { new: number; fixed: number } | null | undefined;
}

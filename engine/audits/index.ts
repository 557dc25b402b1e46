// The performance, accessibility and analytics audits: what the server's report jobs call.
export { auditAccessibility, AXE_TAGS } from './accessibility';
export { analyseEvents, eventKind, type AnalyticsOptions } from './analytics';
export { auditPerformance, DESKTOP_PROFILE } from './performance';
export { AuditError, MAX_AUDIT_PAGES, type AuditOptions } from './session';

// The performance, accessibility and analytics audits: what the server's report jobs call.
export { auditAccessibility } from './accessibility';
export { analyseEvents } from './analytics';
export { auditPerformance } from './performance';
export { AuditError } from './session';

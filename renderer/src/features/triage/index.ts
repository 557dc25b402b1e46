// Triage's public face: the widgets the project page mounts under its findings. Its dialogs, hooks and texts stay
// inside; other features import only from here (lint:imports).
export { SuppressedFindings } from './components/suppressed-findings';
export { TriageActions } from './components/triage-actions';

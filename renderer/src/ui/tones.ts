/** Maps domain values to the theme's colour palettes (see theme.ts), so colours are named in one place. */

export type Severity = 'critical' | 'high' | 'medium' | 'moderate' | 'low' | 'info' | 'secure';

export const severityPalette = (severity: Severity) => `severity.${severity}`;

const projectStatuses = new Set(['active', 'completed', 'archived']);

/** active, completed and archived have their own colour; any other status is amber ('other'). */
export const projectStatusTone = (status: string) => (projectStatuses.has(status) ? status : 'other');

export const projectStatusPalette = (status: string) => `status.${projectStatusTone(status)}`;

const eventKinds: Record<string, string> = {
  page_view: 'page-view',
  form_submit: 'form-submit',
  button_click: 'button-click',
  error: 'error',
  api_call: 'api-call',
};

/** page_view, form_submit, button_click, error and api_call each have a colour; other events share one. */
export const eventPalette = (eventName: string) => `event.${eventKinds[eventName] ?? 'other'}`;

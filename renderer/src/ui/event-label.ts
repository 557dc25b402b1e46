// The badge wording of an event kind, shared by the Events page and a project's Recent Activity, so one kind
// never reads 'error' in one list and 'Error' in another.

const EVENT_LABELS: Record<string, string> = {
  page_view: 'Page View',
  form_submit: 'Form Submit',
  button_click: 'Button Click',
  error: 'Error',
  api_call: 'API Call',
  other: 'Other',
};

/** How an event kind reads in its badge: 'page_view' → 'Page View'; unknown kinds are title-cased. */
export function eventLabel(eventName: string): string {
  return (
    EVENT_LABELS[eventName] ??
    eventName
      .split(/[_\s-]+/)
      .filter(Boolean)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' ')
  );
}

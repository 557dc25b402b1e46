/** What a dialog's outside interaction carries that matters here: where it happened, and a way to ignore it. */
interface OutsideEvent {
  /** The element interacted with (the event itself is dispatched on the dialog's content). */
  detail?: { target?: unknown } | null;
  preventDefault(): void;
}

/**
 * A dialog's `onInteractOutside`: a click on a toast (its close button, its text) is not a click away from the
 * dialog. Toasts render outside every dialog, so without this, dismissing one closed the open dialog and lost what
 * was typed in it.
 */
export function keepOpenForToasts(event: OutsideEvent): void {
  const target = event.detail?.target as { closest?: (selector: string) => unknown } | null | undefined;
  if (target?.closest?.('[data-scope="toast"]')) event.preventDefault();
}

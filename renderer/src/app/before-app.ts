/**
 * The visitor's input from before the app ran, kept by renderer/before-app.js on a prerendered page, handed to the
 * app once it runs: what was typed reaches the app's state, and each held-back click or send happens once.
 */

/** An element the visitor used, and where it was under #root (to find its counterpart if the page was rendered afresh). */
interface Kept<T extends Element> {
  element: T;
  path: number[];
  text: string | null;
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

interface BeforeApp {
  take(): { controls: Kept<HTMLElement>[]; fields: Kept<Field>[] };
}

declare global {
  interface Window {
    /** Set by renderer/before-app.js on prerendered pages, until the app takes what it kept. */
    vibeevalBeforeApp?: BeforeApp;
  }
}

/**
 * The element itself while it is still in the page (hydration keeps the prerendered elements), else the element at
 * the same place that looks the same (the page was rendered afresh), else null.
 */
function current<T extends Element>(kept: Kept<T>, same: (found: Element, kept: T) => boolean): T | null {
  if (kept.element.isConnected) return kept.element;
  let node: Element | null | undefined = document.getElementById('root');
  for (const index of kept.path) node = node?.children[index];
  return node && node !== kept.element && same(node, kept.element) ? (node as T) : null;
}

const sameControl = (found: Element, kept: Element) => found.tagName === kept.tagName && found.textContent === kept.textContent;
const sameField = (found: Element, kept: Field) => found.tagName === kept.tagName && (found as Field).type === kept.type && (found as Field).name === kept.name;

/**
 * Makes React take a field's value as typed. React remembers the value it last saw in a setter on the element and
 * fires onChange only for an input event whose value differs from it: the remembered value is set to another one
 * through that setter, the visitor's value through the element's own prototype, then the event is sent.
 */
function tellReact(field: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const own = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value');
  if (!own?.set) return;
  const focused = document.activeElement === field;
  const [start, end] = focused ? [field.selectionStart, field.selectionEnd] : [null, null];
  field.value = value === '' ? ' ' : '';
  own.set.call(field, value);
  if (focused && start !== null && end !== null) field.setSelectionRange(start, end);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/** What the visitor left in a field, read before any field is handed over (each hand-over re-renders the form). */
interface Typed {
  field: Field;
  value: string;
  checked: boolean;
}

/**
 * The field's current element and the visitor's value, when it differs from the app's. Hydrated, the element's
 * default (value attribute, defaultChecked) is what the app renders; rendered afresh, its value is.
 */
function typedInto(kept: Kept<Field>): Typed | null {
  const field = current(kept, sameField);
  if (!field) return null;
  const { value } = kept.element;
  const checked = kept.element instanceof HTMLInputElement && kept.element.checked;
  // A list's choice the app cannot be told apart from its own: one the visitor touched is handed over.
  if (field instanceof HTMLSelectElement) return { field, value, checked };
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
    return checked === (field === kept.element ? field.defaultChecked : field.checked) ? null : { field, value, checked };
  }
  return value === (field === kept.element ? field.defaultValue : field.value) ? null : { field, value, checked };
}

function handOver({ field, value, checked }: Typed) {
  if (field instanceof HTMLSelectElement) {
    field.value = value;
    field.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
    // React sees a checkbox change in its click.
    field.checked = !checked;
    field.click();
  } else {
    tellReact(field, value);
  }
}

/** How long a form sent with Enter before the app ran waits for the app to enable its send button. */
const SEND_WAIT_MS = 5000;

const sendButton = (form: HTMLFormElement) => [...form.elements].find((element) => (element as HTMLButtonElement).type === 'submit') as HTMLButtonElement | undefined;

/**
 * Enter in a form: its send button, once the app enables it (it does when it has checked what was typed, which may
 * take a render or two after the hand-over, and may replace the button). A form the app never enables within
 * SEND_WAIT_MS is not sent: its button stays disabled on screen, where the visitor sees why.
 */
function sendWhenEnabled(form: HTMLFormElement) {
  let done = false;
  const attempt = () => {
    const button = sendButton(form);
    if (done || !form.isConnected || !button || button.disabled) return;
    stop();
    button.click();
  };
  const observer = new MutationObserver(attempt);
  const timer = window.setTimeout(() => stop(), SEND_WAIT_MS);
  function stop() {
    done = true;
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(form, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
  attempt();
}

function replayControl(kept: Kept<HTMLElement>) {
  const control = current(kept, sameControl);
  if (!control) return;
  if (control instanceof HTMLFormElement) {
    if (!sendButton(control)) control.requestSubmit();
    else sendWhenEnabled(control);
    return;
  }
  if (control.matches(':disabled') || control.getAttribute('aria-disabled') === 'true') return;
  control.click();
}

/**
 * Hands the kept input to the app, once, after the render that follows hydration (some controls take input only
 * from then on): the fields first, so the app's state holds what was typed, then each click in its own task, so it
 * acts on the page the one before left (a sign-in under way disables the other buttons).
 */
export function replayInputBeforeApp(): void {
  const beforeApp = window.vibeevalBeforeApp;
  if (!beforeApp) return;
  window.vibeevalBeforeApp = undefined;
  setTimeout(() => {
    const { controls, fields } = beforeApp.take();
    for (const typed of fields.map(typedInto)) if (typed) handOver(typed);
    const next = (index: number) => {
      if (index >= controls.length) return;
      setTimeout(() => {
        replayControl(controls[index]!);
        next(index + 1);
      }, 0);
    };
    next(0);
  }, 0);
}

import { describe, expect, it } from 'vitest';
import { keepOpenForToasts } from './dialog-outside';

/** An element stand-in: `closest` answers for the toast selector when the element sits in a toast. */
const element = (inToast: boolean) => ({ closest: (selector: string) => (inToast && selector === '[data-scope="toast"]' ? {} : null) });

describe('keepOpenForToasts', () => {
  it('keeps the dialog open for a click in a toast, and lets any other outside click close it', () => {
    let prevented = 0;
    const event = (target: unknown) => ({ detail: { target }, preventDefault: () => void prevented++ });
    keepOpenForToasts(event(element(true)));
    expect(prevented).toBe(1);
    keepOpenForToasts(event(element(false)));
    keepOpenForToasts(event(null));
    keepOpenForToasts(event({}));
    keepOpenForToasts({ detail: null, preventDefault: () => void prevented++ });
    expect(prevented).toBe(1);
  });
});

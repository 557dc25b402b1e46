import { MARKETING_TIMING, checkMarketingUrl, type UrlCheck } from '@common/marketing';
import { useEffect, useRef, useState } from 'react';

/**
 * The URL field and its status: recomputed 500 ms after typing stops, and at once when the field is cleared or
 * an example is chosen (spec section 5).
 */
export function useUrlStatus() {
  const [input, setInput] = useState('');
  const [check, setCheck] = useState<UrlCheck>({ status: 'idle' });
  // A value set by `choose` already has its status; the debounce must not recompute it later.
  const settled = useRef<string | null>(null);

  useEffect(() => {
    if (settled.current === input) return;
    const timer = setTimeout(() => setCheck(checkMarketingUrl(input)), MARKETING_TIMING.urlDebounceMs);
    return () => clearTimeout(timer);
  }, [input]);

  return {
    input,
    check,
    /** Typing: the status follows after the pause. */
    type: (value: string) => {
      // Clearing the field is idle at once; anything else waits for the pause.
      const cleared = value.trim() === '';
      settled.current = cleared ? value : null;
      if (cleared) setCheck({ status: 'idle' });
      setInput(value);
    },
    /** Choosing an example: the value and its status at once. */
    choose: (value: string) => {
      settled.current = value;
      setInput(value);
      setCheck(checkMarketingUrl(value));
    },
    /** The status now, for a submit that comes before the pause is over. */
    settle: () => {
      const now = checkMarketingUrl(input);
      settled.current = input;
      setCheck(now);
      return now;
    },
  };
}

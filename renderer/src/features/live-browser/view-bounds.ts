import type { BrowserBounds } from '@common/ipc';
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/** Where `element` is in the window, in whole CSS pixels. */
export function measureBounds(element: Element): BrowserBounds {
  const rect = element.getBoundingClientRect();
  return { x: Math.round(rect.left), y: Math.round(rect.top), width: Math.round(rect.width), height: Math.round(rect.height) };
}

const sameBounds = (a: BrowserBounds | null, b: BrowserBounds) => a !== null && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

/**
 * Tells `onBounds` where the box is whenever it moves or changes size (resize of the box or the window, a scroll
 * anywhere on the page), at most once a frame and only when it changed, while `active`.
 */
export function useViewBounds(ref: RefObject<HTMLElement | null>, active: boolean, onBounds: (bounds: BrowserBounds) => void): void {
  const callback = useRef(onBounds);
  useLayoutEffect(() => {
    callback.current = onBounds;
  });
  useEffect(() => {
    const element = ref.current;
    if (!active || !element) return;
    let last: BrowserBounds | null = null;
    let frame = 0;
    const send = () => {
      frame = 0;
      const bounds = measureBounds(element);
      if (sameBounds(last, bounds)) return;
      last = bounds;
      callback.current(bounds);
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(send);
    };
    const observer = new ResizeObserver(schedule);
    observer.observe(element);
    observer.observe(document.documentElement);
    window.addEventListener('resize', schedule);
    // Capture: a scroll of any scrolling box on the page moves the view's box too.
    window.addEventListener('scroll', schedule, { capture: true, passive: true });
    send();
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', schedule);
      window.removeEventListener('scroll', schedule, { capture: true });
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [ref, active]);
}

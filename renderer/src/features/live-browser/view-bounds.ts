import type { BrowserBounds } from '@common/ipc';
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * The bottom of the page's sticky top bar, if it has one: a native view is drawn over everything on the page,
 * so the part of the box scrolled under the bar is cut off rather than drawn over the bar.
 */
function stickyTop(): number {
  const bar = document.querySelector('header');
  if (!bar) return 0;
  const { position } = getComputedStyle(bar);
  return position === 'sticky' || position === 'fixed' ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
}

/** Where the visible part of `element` is in the window (below a sticky top bar), in whole CSS pixels. */
export function measureBounds(element: Element): BrowserBounds {
  const rect = element.getBoundingClientRect();
  const top = Math.max(rect.top, stickyTop());
  const height = Math.max(0, rect.bottom - top);
  return { x: Math.round(rect.left), y: Math.round(top), width: Math.round(rect.width), height: Math.round(height) };
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

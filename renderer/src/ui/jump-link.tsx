import { Link, type LinkProps } from '@chakra-ui/react';
import type { MouseEvent } from 'react';

/**
 * A link to a section of the same page. It scrolls without changing the URL's fragment (the desktop build may
 * run on a hash router, where '#id' would be read as a route) and moves focus to the target, which needs
 * tabIndex={-1}, so keyboard users continue from there.
 */
export function JumpLink({ to, onClick, ...rest }: Omit<LinkProps, 'href'> & { to: string }) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const target = document.getElementById(to);
    if (event.defaultPrevented || !target) return;
    event.preventDefault();
    target.scrollIntoView({ behavior: 'smooth', block: 'start' });
    target.focus({ preventScroll: true });
  };
  return <Link href={`#${to}`} onClick={handleClick} {...rest} />;
}

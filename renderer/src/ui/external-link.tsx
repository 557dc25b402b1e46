import { Link, type LinkProps } from '@chakra-ui/react';
import type { MouseEvent } from 'react';
import { useServices } from '../app/services';

/**
 * A link that leaves the app. On the web it opens a new tab (noopener); in the desktop app the window may not
 * navigate away, so the bridge hands http(s) URLs to the system browser.
 */
export function ExternalLink({ href, onClick, children, ...rest }: LinkProps & { href: string }) {
  const { bridge } = useServices();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || bridge.kind !== 'desktop' || href.startsWith('mailto:')) return;
    event.preventDefault();
    void bridge.openExternal(href);
  };
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" onClick={handleClick} {...rest}>
      {children}
    </Link>
  );
}

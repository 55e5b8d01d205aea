import type { ComponentProps } from 'react';
import { navigate } from '../lib/router.ts';

/**
 * A link to a view of the app: a plain click navigates without reloading; with a modifier key the
 * browser opens it as it would any link (new tab, new window).
 */
export function AppLink({ href, ...rest }: ComponentProps<'a'> & { href: string }) {
  return (
    <a
      href={href}
      {...rest}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        navigate(href);
      }}
    />
  );
}

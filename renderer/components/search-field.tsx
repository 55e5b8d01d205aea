import type { ComponentProps } from 'react';
import { Icon } from './icons.tsx';

/** A search box with its magnifier; `className` is added to the field's own. */
export function SearchField({ className, ...input }: Omit<ComponentProps<'input'>, 'type'>) {
  return (
    <label className={className ? `search-field ${className}` : 'search-field'}>
      <Icon.search size={14} />
      <input type="search" {...input} />
    </label>
  );
}

import type { Locator as PageLocator, Page } from 'playwright-core';
import type { Locator } from '../../common/scenarios';

type Role = Parameters<Page['getByRole']>[0];

/** The ARIA roles Playwright's getByRole knows (its type's union). */
export const ARIA_ROLES: readonly string[] = [
  'alert',
  'alertdialog',
  'application',
  'article',
  'banner',
  'blockquote',
  'button',
  'caption',
  'cell',
  'checkbox',
  'code',
  'columnheader',
  'combobox',
  'complementary',
  'contentinfo',
  'definition',
  'deletion',
  'dialog',
  'directory',
  'document',
  'emphasis',
  'feed',
  'figure',
  'form',
  'generic',
  'grid',
  'gridcell',
  'group',
  'heading',
  'img',
  'insertion',
  'link',
  'list',
  'listbox',
  'listitem',
  'log',
  'main',
  'marquee',
  'math',
  'meter',
  'menu',
  'menubar',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'navigation',
  'none',
  'note',
  'option',
  'paragraph',
  'presentation',
  'progressbar',
  'radio',
  'radiogroup',
  'region',
  'row',
  'rowgroup',
  'rowheader',
  'scrollbar',
  'search',
  'searchbox',
  'separator',
  'slider',
  'spinbutton',
  'status',
  'strong',
  'subscript',
  'superscript',
  'switch',
  'tab',
  'table',
  'tablist',
  'tabpanel',
  'term',
  'textbox',
  'time',
  'timer',
  'toolbar',
  'tooltip',
  'tree',
  'treegrid',
  'treeitem',
] satisfies Role[];

/** The Playwright locator for a step's target, the way Playwright recommends writing it. */
export function locate(page: Page, target: Locator): PageLocator {
  switch (target.by) {
    case 'role':
      return page.getByRole(target.role as Role, { ...(target.name !== undefined && { name: target.name }), ...(target.exact !== undefined && { exact: target.exact }) });
    case 'label':
      return page.getByLabel(target.text, { exact: target.exact });
    case 'placeholder':
      return page.getByPlaceholder(target.text, { exact: target.exact });
    case 'test_id':
      return page.getByTestId(target.id);
    case 'text':
      return page.getByText(target.text, { exact: target.exact });
    case 'css':
      return page.locator(target.selector);
  }
}

/** A short human name of a target: `button "Sign in"`, `field labelled "Email"`. */
export function describeTarget(target: Locator): string {
  switch (target.by) {
    case 'role':
      return target.name !== undefined ? `${target.role} "${target.name}"` : target.role;
    case 'label':
      return `field labelled "${target.text}"`;
    case 'placeholder':
      return `field with placeholder "${target.text}"`;
    case 'test_id':
      return `element with test id "${target.id}"`;
    case 'text':
      return `text "${target.text}"`;
    case 'css':
      return `element "${target.selector}"`;
  }
}

import type { Locator as PageLocator, Page } from 'playwright-core';
import type { Locator } from '../../common/scenarios';
import { locate } from './locate';

/** What the page tells about an element, to name it the way a tester would. */
interface ElementFacts {
  tag: string;
  type: string;
  role: string;
  id: string;
  name: string;
  testId: string;
  placeholder: string;
  label: string;
  text: string;
}

/** The DOM as far as FACTS reads it (the engine is compiled without the DOM's types). */
interface FactsElement {
  tagName: string;
  id: string;
  innerText?: string;
  value?: string;
  labels?: ArrayLike<{ innerText: string }> | null;
  getAttribute(name: string): string | null;
}

/** Runs in the page; no nested named functions (Playwright sends its source text). */
const FACTS = (el: FactsElement): ElementFacts => {
  const labels = el.labels ? Array.from(el.labels, (label) => label.innerText.trim()).filter(Boolean) : [];
  return {
    tag: el.tagName.toLowerCase(),
    type: (el.getAttribute('type') || '').toLowerCase(),
    role: el.getAttribute('role') || '',
    id: el.id || '',
    name: el.getAttribute('name') || '',
    testId: el.getAttribute('data-testid') || '',
    placeholder: el.getAttribute('placeholder') || '',
    label: el.getAttribute('aria-label') || labels[0] || '',
    text: (el.innerText || (el.tagName === 'INPUT' ? el.value : '') || '').replace(/\s+/g, ' ').trim().slice(0, 100),
  };
};

const TEXT_INPUTS = new Set(['', 'text', 'email', 'search', 'tel', 'url']);

/** The implicit ARIA role Playwright's getByRole would match for the common elements, or none. */
function roleOf(facts: ElementFacts): string | null {
  if (facts.role) return facts.role;
  if (facts.tag === 'button' || (facts.tag === 'input' && ['submit', 'button', 'reset', 'image'].includes(facts.type))) return 'button';
  if (facts.tag === 'a') return 'link';
  if (/^h[1-6]$/.test(facts.tag)) return 'heading';
  if (facts.tag === 'textarea' || (facts.tag === 'input' && TEXT_INPUTS.has(facts.type))) return 'textbox';
  if (facts.tag === 'select') return 'combobox';
  if (facts.tag === 'input' && (facts.type === 'checkbox' || facts.type === 'radio')) return facts.type;
  return null;
}

function candidates(facts: ElementFacts): Locator[] {
  const list: Locator[] = [];
  const role = roleOf(facts);
  const accessibleName = facts.label || (facts.tag === 'input' || facts.tag === 'textarea' || facts.tag === 'select' ? '' : facts.text);
  if (role && accessibleName) list.push({ by: 'role', role, name: accessibleName });
  if (facts.label) list.push({ by: 'label', text: facts.label });
  if (facts.placeholder) list.push({ by: 'placeholder', text: facts.placeholder });
  if (facts.testId) list.push({ by: 'test_id', id: facts.testId });
  if (facts.text && !['input', 'textarea', 'select'].includes(facts.tag)) list.push({ by: 'text', text: facts.text });
  if (/^[A-Za-z][\w-]*$/.test(facts.id)) list.push({ by: 'css', selector: `#${facts.id}` });
  else if (/^[\w-]+$/.test(facts.name)) list.push({ by: 'css', selector: `${facts.tag}[name="${facts.name}"]` });
  return list;
}

/**
 * The most robust locator that finds exactly this element, in Playwright's recommended order (role and name, label,
 * placeholder, test id, text, CSS last); each candidate is tried on the page. Null when none finds it alone.
 */
export async function pickLocator(page: Page, element: PageLocator): Promise<Locator | null> {
  const handle = await element.elementHandle({ timeout: 2_000 }).catch(() => null);
  if (!handle) return null;
  try {
    const facts = await handle.evaluate(FACTS as unknown as (el: unknown) => ElementFacts);
    for (const candidate of candidates(facts)) {
      const found = locate(page, candidate);
      if ((await found.count()) !== 1) continue;
      if (await found.evaluate((el, other) => el === other, handle)) return candidate;
    }
    return null;
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}

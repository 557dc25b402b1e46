import { describe, expect, it } from 'vitest';
import { system } from './theme';
import { eventPalette, projectStatusPalette, severityPalette, type Severity } from './tones';

const severities: Severity[] = ['critical', 'high', 'medium', 'moderate', 'low', 'info', 'secure'];
const hasPalette = (name: string) => system.tokens.colorPaletteMap.has(name);

describe('theme', () => {
  it('defines a colour palette for every severity, project status and event kind', () => {
    for (const severity of severities) expect(hasPalette(severityPalette(severity)), severity).toBe(true);
    for (const status of ['active', 'completed', 'archived', 'paused']) {
      expect(hasPalette(projectStatusPalette(status)), status).toBe(true);
    }
    for (const kind of ['page_view', 'form_submit', 'button_click', 'error', 'api_call', 'custom']) {
      expect(hasPalette(eventPalette(kind)), kind).toBe(true);
    }
    expect(hasPalette('brand')).toBe(true);
    expect(hasPalette('severity.unknown')).toBe(false);
  });

  it('shows unknown project statuses and event kinds in the shared fallback colour', () => {
    expect(projectStatusPalette('paused')).toBe('status.other');
    expect(eventPalette('custom')).toBe('event.other');
    expect(eventPalette('page_view')).toBe('event.page-view');
  });
});

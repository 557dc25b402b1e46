import { describe, expect, it } from 'vitest';
import { CATEGORIES, FEATURES, TOOLS, filterFeatures, nextSort, sortFeatures } from './comparison-data';

describe('comparison data', () => {
  it('rates vibeeval and ten other tools on every row', () => {
    expect(TOOLS).toHaveLength(11);
    expect(TOOLS[0].id).toBe('vibeeval');
    for (const feature of FEATURES) {
      expect(Object.keys(feature.support).sort(), feature.name).toEqual(TOOLS.map((tool) => tool.id).sort());
    }
    expect(new Set(FEATURES.map((feature) => feature.name)).size).toBe(FEATURES.length);
  });

  it('has rows in every category', () => {
    for (const category of CATEGORIES.filter((c) => c.id !== 'all')) {
      expect(filterFeatures(FEATURES, category.id, '').length, category.id).toBeGreaterThan(2);
    }
  });
});

describe('filterFeatures', () => {
  it('matches names case-insensitively within the category', () => {
    const all = filterFeatures(FEATURES, 'all', '');
    expect(all).toHaveLength(FEATURES.length);
    const sarif = filterFeatures(FEATURES, 'all', '  sArIf ');
    expect(sarif.map((feature) => feature.name)).toEqual(['SARIF output']);
    expect(filterFeatures(FEATURES, 'usability', 'sarif')).toEqual([]);
    expect(filterFeatures(FEATURES, 'all', 'no such feature')).toEqual([]);
    const security = filterFeatures(FEATURES, 'security', '');
    expect(security.every((feature) => feature.category === 'security')).toBe(true);
  });
});

describe('sortFeatures', () => {
  it('sorts by name both ways and keeps the original order when unsorted', () => {
    const names = (direction: Parameters<typeof sortFeatures>[1]) => sortFeatures(FEATURES, direction).map((f) => f.name);
    const ascending = names('ascending');
    expect(ascending).toEqual([...ascending].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(names('descending')).toEqual([...ascending].reverse());
    expect(names('none')).toEqual(FEATURES.map((f) => f.name));
  });

  it('toggles ascending and descending', () => {
    expect(nextSort('none')).toBe('ascending');
    expect(nextSort('ascending')).toBe('descending');
    expect(nextSort('descending')).toBe('ascending');
  });
});

import { describe, expect, it } from 'vitest';
import { PRERENDERED_ROUTES, prerenderedPageFile } from './prerender';

describe('prerenderedPageFile', () => {
  it('maps each prerendered route to one file under pages/', () => {
    expect(prerenderedPageFile('/')).toBe('pages/index.html');
    expect(prerenderedPageFile('/login')).toBe('pages/login.html');
    expect(prerenderedPageFile('/updates/vibe-coding-apps')).toBe('pages/updates/vibe-coding-apps.html');
    expect(prerenderedPageFile('/dashboard/projects')).toBe('pages/dashboard/projects.html');
    const files = PRERENDERED_ROUTES.map(prerenderedPageFile);
    expect(new Set(files).size).toBe(PRERENDERED_ROUTES.length);
  });

  it('ignores one trailing slash', () => {
    expect(prerenderedPageFile('/login/')).toBe('pages/login.html');
  });

  it('has no file for other paths, whatever they contain', () => {
    for (const path of ['/dashboard', '/dashboard/projects/1', '/nope', '/pages/login.html', '/../index', '/login//', '', '/%2e%2e/x']) {
      expect(prerenderedPageFile(path), path).toBeNull();
    }
  });
});

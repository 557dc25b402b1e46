import { describe, expect, it } from 'vitest';
import { PRERENDERED_PAGES, PRERENDERED_ROUTES, PROJECT_PAGE_ROUTE, prerenderedPageFile, prerenderedRoute } from './prerender';

describe('prerenderedPageFile', () => {
  it('maps each prerendered route to one file under pages/', () => {
    expect(prerenderedPageFile('/')).toBe('pages/index.html');
    expect(prerenderedPageFile('/login')).toBe('pages/login.html');
    expect(prerenderedPageFile('/updates/vibe-coding-apps')).toBe('pages/updates/vibe-coding-apps.html');
    expect(prerenderedPageFile('/dashboard/projects')).toBe('pages/dashboard/projects.html');
    const files = PRERENDERED_PAGES.map(({ renderAt }) => prerenderedPageFile(renderAt));
    expect(new Set(files).size).toBe(PRERENDERED_ROUTES.length + 1);
  });

  it("serves every project's page from one shell, by the id's form only", () => {
    const id = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
    expect(prerenderedPageFile(`/dashboard/projects/${id}`)).toBe('pages/dashboard/project.html');
    expect(prerenderedPageFile(`/dashboard/projects/${id.toUpperCase()}/`)).toBe('pages/dashboard/project.html');
    expect(prerenderedRoute(`/dashboard/projects/${id}`)).toBe(PROJECT_PAGE_ROUTE);
    expect(prerenderedRoute('/login')).toBe('/login');
    for (const path of [`/dashboard/projects/${id}x`, `/dashboard/projects/${id}/settings`, `/dashboard/projects/../${id}`, '/dashboard/projects/:id']) {
      expect(prerenderedPageFile(path), path).toBeNull();
    }
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

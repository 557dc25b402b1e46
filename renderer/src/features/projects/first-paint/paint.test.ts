import { describe, expect, it } from 'vitest';
import { readProjectList } from './paint';

const project = {
  id: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b',
  url: 'https://shop.example.com/',
  status: 'active',
  instruction_text: null,
  secret_instruction: null,
  num_pages: 2,
  creation_date: '2026-11-01T10:00:00.000Z',
  last_test: null,
  latest_scan: { id: 's1', state: 'completed', grade: 'B+' },
};

describe('readProjectList (the early answer the start script paints)', () => {
  it('takes a list of projects as GET /projects answers it, the empty list included', () => {
    expect(readProjectList([project, { ...project, latest_scan: null }])).toHaveLength(2);
    expect(readProjectList([])).toEqual([]);
  });

  it('paints nothing from a body of another shape: the app then shows what it reads itself', () => {
    expect(readProjectList({ projects: [project] })).toBeNull();
    expect(readProjectList(null)).toBeNull();
    expect(readProjectList([{ ...project, id: 'not-a-uuid' }])).toBeNull();
    expect(readProjectList([{ ...project, num_pages: '2' }])).toBeNull();
    expect(readProjectList([{ ...project, url: 42 }])).toBeNull();
    expect(readProjectList([{ ...project, latest_scan: { state: 'completed', grade: 7 } }])).toBeNull();
    expect(readProjectList([project, 'x'])).toBeNull();
  });
});

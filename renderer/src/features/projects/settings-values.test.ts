import type { Project } from '@common/projects';
import { describe, expect, it } from 'vitest';
import { afterSave, settingsValuesOf } from './settings-values';

const project: Project = {
  id: 'p1',
  url: 'https://shop.example',
  status: 'active',
  instruction_text: 'Shop',
  secret_instruction: null,
  num_pages: 3,
  creation_date: '2026-11-01T00:00:00Z',
  last_test: null,
  latest_scan: null,
  active_mode: false,
};

describe('the Project Settings form after a save comes back', () => {
  it('shows what the server saved for each field left as it was sent', () => {
    const sent = { ...settingsValuesOf(project), num_pages: '0', instruction_text: 'Shop 2' };
    const saved = { ...project, num_pages: 1, instruction_text: 'Shop 2' };
    expect(afterSave(sent, sent, saved)).toEqual({ ...settingsValuesOf(project), num_pages: '1', instruction_text: 'Shop 2' });
  });

  it('keeps a change made while the save was on its way', () => {
    const sent = { ...settingsValuesOf(project), num_pages: '5' };
    const current = { ...sent, active_mode: true, url: 'https://shop.example/typing' };
    const saved = { ...project, num_pages: 5 };
    expect(afterSave(current, sent, saved)).toEqual({ ...settingsValuesOf(saved), active_mode: true, url: 'https://shop.example/typing' });
  });
});

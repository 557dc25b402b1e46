import { describe, expect, it } from 'vitest';
import type { DesktopSettings } from '@common/desktop-settings';
import { parseServerForm, serverFormChanged, serverFormOf } from './server-form';

const embedded: DesktopSettings = {
  desktopNotifications: true,
  server: { mode: 'embedded' },
  activeServerOrigin: 'http://127.0.0.1:5000',
  restartRequired: false,
};
const team: DesktopSettings = { ...embedded, server: { mode: 'team', url: 'https://team.example.com' } };

describe('server choice form', () => {
  it('starts from the saved choice', () => {
    expect(serverFormOf(embedded)).toEqual({ mode: 'embedded', url: '' });
    expect(serverFormOf(team)).toEqual({ mode: 'team', url: 'https://team.example.com' });
  });

  it('gives the choice to save, ignoring a URL typed before switching back to Embedded', () => {
    expect(parseServerForm({ mode: 'embedded', url: 'junk' })).toEqual({ choice: { mode: 'embedded' } });
    expect(parseServerForm({ mode: 'team', url: ' https://team.example.com ' })).toEqual({
      choice: { mode: 'team', url: 'https://team.example.com' },
    });
  });

  it.each([
    ['', "Enter the team server's address"],
    ['team.example.com', 'Enter an http(s) address without a path, e.g. https://vibeeval.example.com'],
    ['https://team.example.com/vibeeval', 'Enter an http(s) address without a path, e.g. https://vibeeval.example.com'],
    ['https://me:pw@team.example.com', 'Enter an http(s) address without a path, e.g. https://vibeeval.example.com'],
  ])('refuses %j with a message for the field', (url, error) => {
    expect(parseServerForm({ mode: 'team', url })).toEqual({ error });
  });

  it('knows when Save would change anything', () => {
    expect(serverFormChanged({ mode: 'embedded', url: '' }, embedded.server)).toBe(false);
    expect(serverFormChanged({ mode: 'team', url: 'https://team.example.com' }, embedded.server)).toBe(true);
    expect(serverFormChanged({ mode: 'team', url: 'https://team.example.com/' }, team.server)).toBe(false);
    expect(serverFormChanged({ mode: 'team', url: 'https://other.example.com' }, team.server)).toBe(true);
  });
});

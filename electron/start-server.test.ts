import { describe, expect, it, vi } from 'vitest';
import { createSettings, type TeamServerCheck } from './settings';
import { resolveServerOrigin, teamServerFailureChoice, teamServerFailureDialog, type TeamServerFailureChoice } from './start-server';

function setUp(server: unknown, checks: TeamServerCheck[], answers: TeamServerFailureChoice[]) {
  const backend = { store: { server } as Record<string, unknown> };
  const settings = createSettings(backend);
  const check = vi.fn(async () => checks.shift() ?? { ok: true as const });
  const ask = vi.fn(async () => answers.shift() ?? 'quit');
  const startEmbedded = vi.fn(async () => 'http://127.0.0.1:5000');
  return { backend, deps: { settings, check, ask, startEmbedded }, check, ask, startEmbedded };
}

const team = { mode: 'team', url: 'https://team.example.com' };

describe('the server a start uses', () => {
  it('starts the embedded server when no team server is saved', async () => {
    const { deps, check, startEmbedded } = setUp({ mode: 'embedded' }, [], []);
    expect(await resolveServerOrigin(deps)).toBe('http://127.0.0.1:5000');
    expect(startEmbedded).toHaveBeenCalledOnce();
    expect(check).not.toHaveBeenCalled();
  });

  it('uses a saved team server that answers, without starting the embedded one', async () => {
    const { deps, check, startEmbedded } = setUp(team, [{ ok: true }], []);
    expect(await resolveServerOrigin(deps)).toBe('https://team.example.com');
    expect(check).toHaveBeenCalledWith('https://team.example.com');
    expect(startEmbedded).not.toHaveBeenCalled();
  });

  it('asks when the team server is down: try again, then it answers', async () => {
    const { deps, ask } = setUp(team, [{ ok: false, reason: 'unreachable' }, { ok: true }], ['retry']);
    expect(await resolveServerOrigin(deps)).toBe('https://team.example.com');
    expect(ask).toHaveBeenCalledWith('https://team.example.com', 'The team server could not be reached. Check the address and your network.');
  });

  it('goes back to the embedded server (saved) when the user picks it', async () => {
    const { deps, backend, startEmbedded } = setUp(team, [{ ok: false, reason: 'timeout' }], ['embedded']);
    expect(await resolveServerOrigin(deps)).toBe('http://127.0.0.1:5000');
    expect(startEmbedded).toHaveBeenCalledOnce();
    expect(backend.store.server).toEqual({ mode: 'embedded' });
  });

  it('gives null (quit) when the user quits, starting nothing', async () => {
    const { deps, startEmbedded, backend } = setUp(team, [{ ok: false, reason: 'origin-refused' }], ['quit']);
    expect(await resolveServerOrigin(deps)).toBeNull();
    expect(startEmbedded).not.toHaveBeenCalled();
    expect(backend.store.server).toEqual(team);
  });
});

describe('the question', () => {
  it('names the server and why, and maps each button (a dismissed box is Quit)', () => {
    const options = teamServerFailureDialog('https://team.example.com', 'It does not answer.');
    expect(options.buttons).toEqual(['Try Again', 'Use the Embedded Server', 'Quit']);
    expect(options.detail).toBe('https://team.example.com\n\nIt does not answer.');
    expect(options.cancelId).toBe(2);
    expect([0, 1, 2, 7, -1].map(teamServerFailureChoice)).toEqual(['retry', 'embedded', 'quit', 'quit', 'quit']);
  });
});

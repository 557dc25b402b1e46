import { AUTH_STORAGE_KEY } from '@common/auth';
import { WORKSPACE_HEADER } from '@common/workspaces';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { takeFirstAnswer } from './first-data';
import { createApiClient } from './http';
import { WORKSPACE_STORAGE_PREFIX } from './workspace-store';
// The script's text, as the bundler reads a file with ?raw.
import startScript from '../../start-after-paint.js?raw';

const URL_ = 'http://app.test/projects';
const WORKSPACE = '11111111-1111-4111-8111-111111111111';

/** What renderer/start-after-paint.js leaves behind after asking for the project list. */
function leaveAnswer(response: Response | null, workspace = WORKSPACE, at = Date.now()) {
  vi.stubGlobal('__vibeevalFirstAnswers', { [URL_]: { workspace, at, response: Promise.resolve(response) } });
}

afterEach(() => vi.unstubAllGlobals());

describe('takeFirstAnswer', () => {
  it('hands the answer over once, for the same URL and workspace', async () => {
    const answer = Response.json([]);
    leaveAnswer(answer);
    expect(takeFirstAnswer('http://app.test/projects?cursor=x', WORKSPACE)).toBeNull();
    await expect(takeFirstAnswer(URL_, WORKSPACE)).resolves.toBe(answer);
    expect(takeFirstAnswer(URL_, WORKSPACE)).toBeNull();
  });

  it('drops an answer asked in another workspace, or too long ago', () => {
    leaveAnswer(Response.json([]), 'aaaaaaaa-1111-4111-8111-111111111111');
    expect(takeFirstAnswer(URL_, WORKSPACE)).toBeNull();
    leaveAnswer(Response.json([]), WORKSPACE, Date.now() - 60_000);
    expect(takeFirstAnswer(URL_, WORKSPACE)).toBeNull();
    expect(takeFirstAnswer(URL_, WORKSPACE)).toBeNull();
  });

  it('hands an answer asked in no workspace (the app config) to a read in none only', async () => {
    const answer = Response.json({});
    vi.stubGlobal('__vibeevalFirstAnswers', { [URL_]: { workspace: undefined, at: Date.now(), response: Promise.resolve(answer) } });
    expect(takeFirstAnswer(URL_, WORKSPACE)).toBeNull();
    vi.stubGlobal('__vibeevalFirstAnswers', { [URL_]: { workspace: undefined, at: Date.now(), response: Promise.resolve(answer) } });
    await expect(takeFirstAnswer(URL_, undefined)).resolves.toBe(answer);
  });

  it('answers null when the start script asked for nothing', () => {
    expect(takeFirstAnswer(URL_, WORKSPACE)).toBeNull();
  });
});

describe('the API client with an answer asked for early', () => {
  const api = () => createApiClient('http://app.test', async () => 'tok', { current: async () => WORKSPACE, gone: () => {} });

  it('takes it instead of asking again, then asks the server for the next reads', async () => {
    leaveAnswer(Response.json([{ id: 'p1' }]));
    const fetchMock = vi.fn(async () => Response.json([{ id: 'p2' }]));
    vi.stubGlobal('fetch', fetchMock);
    await expect(api().request('GET', '/projects')).resolves.toEqual([{ id: 'p1' }]);
    expect(fetchMock).not.toHaveBeenCalled();
    await expect(api().request('GET', '/projects')).resolves.toEqual([{ id: 'p2' }]);
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('asks again when the early answer failed or was refused', async () => {
    const fetchMock = vi.fn(async () => Response.json([{ id: 'p2' }]));
    vi.stubGlobal('fetch', fetchMock);
    leaveAnswer(null);
    await expect(api().request('GET', '/projects')).resolves.toEqual([{ id: 'p2' }]);
    leaveAnswer(Response.json({ detail: 'Invalid token' }, { status: 401 }));
    await expect(api().request('GET', '/projects')).resolves.toEqual([{ id: 'p2' }]);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('renderer/start-after-paint.js', () => {
  // A classic script, not bundled: it spells out the names the app keeps the session and workspace under.
  it('reads the session and workspace where the app keeps them and asks as the app does', () => {
    const source = startScript;
    expect(source).toContain(`localStorage.getItem('${AUTH_STORAGE_KEY}')`);
    expect(source).toContain(`localStorage.getItem('${WORKSPACE_STORAGE_PREFIX}' + session.user.id)`);
    expect(source).toContain(`'${WORKSPACE_HEADER}': workspace`);
    expect(source).toContain('__vibeevalFirstAnswers');
  });
});

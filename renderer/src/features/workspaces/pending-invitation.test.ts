import { describe, expect, it } from 'vitest';
import { PENDING_INVITATION_KEY, invitationPagePath, keepPendingInvitation, takePendingInvitation } from './pending-invitation';
import { invitationTokenOf, workspacePath } from './paths';

const TOKEN = `vbi_${'a'.repeat(43)}`;

function memoryStorage() {
  const map = new Map<string, string>();
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
}

describe('an invitation opened signed out', () => {
  it('keeps a well-formed token once, for after signing in', () => {
    const store = memoryStorage();
    keepPendingInvitation(TOKEN, store);
    expect(store.map.get(PENDING_INVITATION_KEY)).toBe(TOKEN);
    expect(takePendingInvitation(store)).toBe(TOKEN);
    expect(takePendingInvitation(store)).toBeNull();
  });

  it('keeps nothing that is not an invitation token', () => {
    const store = memoryStorage();
    keepPendingInvitation('vbi_short', store);
    expect(store.map.size).toBe(0);
    store.setItem(PENDING_INVITATION_KEY, 'javascript:alert(1)');
    expect(takePendingInvitation(store)).toBeNull();
    expect(store.map.size).toBe(0);
  });

  it('builds and reads the invitation address', () => {
    expect(invitationPagePath(TOKEN)).toBe(`/invite?token=${TOKEN}`);
    expect(invitationTokenOf(`?token=${TOKEN}`)).toBe(TOKEN);
    expect(invitationTokenOf(`?token=${TOKEN}&token=x`)).toBeNull();
    expect(invitationTokenOf('')).toBeNull();
  });

  it('fills the workspace routes, encoded', () => {
    expect(workspacePath('member', { id: 'w 1', userId: 'u/2' })).toBe('/workspace/w%201/members/u%2F2');
    expect(() => workspacePath('one')).toThrow('missing id');
  });
});

import { describe, expect, it } from 'vitest';
import { back, canGoBack, canGoForward, current, emptyHistory, forward, MAX_HISTORY, visit } from './address-history';

describe('the web live browser history', () => {
  it('starts empty, with nowhere to go', () => {
    expect(current(emptyHistory)).toBeUndefined();
    expect(canGoBack(emptyHistory)).toBe(false);
    expect(canGoForward(emptyHistory)).toBe(false);
    expect(back(emptyHistory)).toBe(emptyHistory);
  });

  it('goes back and forward through visited addresses; a new visit drops the forward ones', () => {
    let history = visit(visit(visit(emptyHistory, 'https://a.example/'), 'https://b.example/'), 'https://c.example/');
    history = back(back(history));
    expect(current(history)).toBe('https://a.example/');
    expect(canGoBack(history)).toBe(false);
    history = forward(history);
    expect(current(history)).toBe('https://b.example/');
    history = visit(history, 'https://d.example/');
    expect(history.entries).toEqual(['https://a.example/', 'https://b.example/', 'https://d.example/']);
    expect(canGoForward(history)).toBe(false);
    expect(forward(history)).toBe(history);
  });

  it('does not repeat the current address, and keeps at most MAX_HISTORY entries', () => {
    const once = visit(emptyHistory, 'https://a.example/');
    expect(visit(once, 'https://a.example/')).toBe(once);
    let history = emptyHistory;
    for (let i = 0; i < MAX_HISTORY + 5; i++) history = visit(history, `https://s${i}.example/`);
    expect(history.entries).toHaveLength(MAX_HISTORY);
    expect(history.entries[0]).toBe('https://s5.example/');
    expect(history.index).toBe(MAX_HISTORY - 1);
  });
});

import { describe, expect, it } from 'vitest';
import { nounFor, plural, waitText } from './plural';

describe('plural', () => {
  it('puts one in the singular and every other count in the plural', () => {
    expect(plural(1, 'request')).toBe('1 request');
    expect(plural(0, 'issue')).toBe('0 issues');
    expect(plural(2, 'warning')).toBe('2 warnings');
    expect(plural(1, 'query', 'queries')).toBe('1 query');
    expect(plural(3, 'query', 'queries')).toBe('3 queries');
    expect(plural(1200, 'check')).toBe('1,200 checks');
    expect(nounFor(1, 'issue')).toBe('issue');
    expect(nounFor(5, 'issue')).toBe('issues');
  });
});

describe('waitText', () => {
  it('says the wait in the largest whole unit, rounded up', () => {
    expect(waitText(1)).toBe('1 second');
    expect(waitText(0.2)).toBe('1 second');
    expect(waitText(45)).toBe('45 seconds');
    expect(waitText(60)).toBe('1 minute');
    expect(waitText(61)).toBe('2 minutes');
    expect(waitText(900)).toBe('15 minutes');
    expect(waitText(3600)).toBe('1 hour');
    expect(waitText(5400)).toBe('2 hours');
  });
});

import { describe, expect, it } from 'vitest';
import { landingAfterSwitch, MEMBERS_PATH } from './paths';

describe('landingAfterSwitch', () => {
  it('keeps the Members page (with or without a trailing slash) and leaves every other screen to the default', () => {
    expect(landingAfterSwitch('/dashboard/members')).toBe(MEMBERS_PATH);
    expect(landingAfterSwitch('/dashboard/members/')).toBe(MEMBERS_PATH);
    for (const path of ['/dashboard/projects', '/dashboard/project/1', '/dashboard/members-x', '/dashboard']) expect(landingAfterSwitch(path)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { permissionsPolicy } from './permissions-policy';

const URL = 'https://app.example.com/';
const run = (headers: Record<string, string>) => permissionsPolicy.run(makeSite({ root: { url: URL, headers, body: '<p>' } }));

describe('permissions-policy', () => {
  it('passes with a Permissions-Policy header', () => {
    expect(run({ 'permissions-policy': 'camera=(), microphone=()' })).toEqual([]);
  });

  it('flags a missing header at the default severity', () => {
    const findings = run({});
    expect(findings).toHaveLength(1);
    expect(findings[0]!.severity).toBeUndefined();
  });

  it('flags a lone Feature-Policy as info', () => {
    expect(run({ 'feature-policy': "camera 'none'" })).toMatchObject([{ severity: 'info', evidence: { match: "camera 'none'" } }]);
  });
});

import { WEBHOOK_TEXTS } from '@common/webhooks';
import { describe, expect, it } from 'vitest';
import { attemptOutcome, deliveryPalette, testFailure, testOutcome, testUrlError, webhookUrlError } from './webhook-format';

describe('webhookUrlError', () => {
  it.each([
    ['', WEBHOOK_TEXTS.urlRequired],
    ['   ', WEBHOOK_TEXTS.urlRequired],
    ['a.io', WEBHOOK_TEXTS.urlRequired],
    ['not a url', WEBHOOK_TEXTS.invalidUrl],
    ['ftp://example.com/hook', WEBHOOK_TEXTS.invalidUrl],
    ['https://hooks.example.com/in', null],
    ['  http://127.0.0.1:9000/hook  ', null],
  ])('%j -> %s', (url, expected) => {
    expect(webhookUrlError(url)).toBe(expected);
  });
});

describe('testUrlError', () => {
  it('asks for a URL first when the field is empty', () => {
    expect(testUrlError('')).toBe('Please enter a webhook URL first');
    expect(testUrlError('  ')).toBe('Please enter a webhook URL first');
  });
  it('checks a filled field like Save does', () => {
    expect(testUrlError('nope nope')).toBe('Please enter a valid URL');
    expect(testUrlError('https://example.com/hook')).toBeNull();
  });
});

describe('testOutcome', () => {
  it.each([200, 204, 299])('%i is a success with its code', (code) => {
    expect(testOutcome(code)).toEqual({ state: 'success', statusCode: code });
  });
  it.each([199, 300, 404, 500])('%i is "Verification failed" with its code', (code) => {
    expect(testOutcome(code)).toEqual({ state: 'error', message: 'Verification failed', reason: null, statusCode: code });
  });
  it('a call without an answer is "Webhook test failed", with the reason below when there is one', () => {
    expect(testFailure('Address not allowed')).toEqual({ state: 'error', message: 'Webhook test failed', reason: 'Address not allowed', statusCode: null });
    expect(testFailure(undefined)).toEqual({ state: 'error', message: 'Webhook test failed', reason: null, statusCode: null });
    expect(testFailure(' ')).toEqual({ state: 'error', message: 'Webhook test failed', reason: null, statusCode: null });
  });
});

describe('deliveries', () => {
  it('colours each status', () => {
    expect([deliveryPalette('succeeded'), deliveryPalette('failed'), deliveryPalette('pending')]).toEqual(['green', 'red', 'orange']);
  });
  it('says what an attempt got back', () => {
    const base = { attempted_at: '2025-01-01T00:00:00Z', duration_ms: 12, response_excerpt: null };
    expect(attemptOutcome({ ...base, status_code: 503, error: null })).toBe('HTTP 503');
    expect(attemptOutcome({ ...base, status_code: null, error: 'timeout' })).toBe('timeout');
    expect(attemptOutcome({ ...base, status_code: null, error: null })).toBe('No answer');
  });
});

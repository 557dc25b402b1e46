import { describe, expect, it } from 'vitest';
import { maskEmail, maskedJsonExcerpt, PASSWORD_HASH, privateDataIn } from './private-data';

const judge = (json: unknown, path = '/api/things') => privateDataIn(json, JSON.stringify(json), path);
const BCRYPT = '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';

describe('private data in JSON answers', () => {
  it('recognises password hash formats, not ordinary strings', () => {
    expect(PASSWORD_HASH.test(BCRYPT)).toBe(true);
    expect(PASSWORD_HASH.test('$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG')).toBe(true);
    expect(PASSWORD_HASH.test('pbkdf2_sha256$600000$abc$def=')).toBe(true);
    expect(PASSWORD_HASH.test('$5 off today')).toBe(false);
  });

  const clean: Array<[string, unknown, string?]> = [
    [
      'a product catalogue',
      [
        { id: 1, name: 'Mug', price: 9 },
        { id: 2, name: 'Tee', price: 19, description: 'Soft' },
      ],
      '/api/products',
    ],
    [
      'a store list with addresses but no people',
      [
        { id: 1, name: 'Shop A', address: '1 Main St' },
        { id: 2, name: 'Shop B', address: '2 Main St' },
      ],
      '/api/stores',
    ],
    ['an empty user list', { users: [] }, '/api/users'],
    ['a health check', { status: 'ok', version: '1.2.3' }],
    ['a CSRF token and paging cursor', { csrfToken: 'a1b2c3d4e5f6a7b8c9d0', next_page_token: 'eyJwYWdlIjoyfQ' }],
    ['a support address in a config answer', { supportEmail: 'support@example.com', salesEmail: 'sales@example.com', theme: 'dark' }, '/api/config'],
    [
      'user records whose contact columns hold placeholders',
      [
        { id: 1, email: 'n/a', phone: 'none', ip_address: 'c0ffee00-1111-4222-8333-444455556666' },
        { id: 2, email: 'n/a', phone: '-' },
      ],
      '/api/users',
    ],
    [
      'a names-only list outside a people collection',
      [
        { id: 1, name: 'Ada' },
        { id: 2, name: 'Bob' },
      ],
      '/api/authors-of-the-week',
    ],
  ];
  it.each(clean)('nothing in %s', (_name, json, path) => {
    expect(judge(json, path)).toBeUndefined();
  });

  it('rates credentials critical, several people high, one person medium, id+name user lists medium', () => {
    expect(judge([{ id: 1, email: 'ada@example.com', password_hash: BCRYPT }])).toMatchObject({ severity: 'critical', credentials: ['password_hash'] });
    expect(judge({ user: { id: 1, username: 'ada', password: 'hunter22' } })?.severity).toBe('critical');
    expect(
      judge({
        data: [
          { id: 1, email: 'ada@example.com' },
          { id: 2, email: 'bob@example.com', phone: '+1 555 0100' },
        ],
      }),
    ).toMatchObject({
      severity: 'high',
      people: 2,
      personal: ['email', 'phone'],
    });
    expect(judge({ id: 1, name: 'Ada', email: 'ada@example.com' })).toMatchObject({ severity: 'medium', people: 1 });
    expect(
      judge(
        [
          { id: 1, name: 'Ada' },
          { id: 2, name: 'Bob' },
        ],
        '/api/users',
      ),
    ).toMatchObject({ severity: 'medium', people: 2, namesOnly: true });
    expect(judge({ config: { stripe: 'sk_live_51HqLyjWDarjtT1zdp7dcXeVUG0hK9pGmSTDDqz3kH' } })).toMatchObject({ severity: 'critical', secrets: [expect.stringMatching(/Stripe/)] });
  });

  it('rates by the values: card numbers by Luhn and IBANs by checksum are credentials or personal data, and says why', () => {
    expect(judge([{ id: 1, card: '4242 4242 4242 4242' }])).toMatchObject({ severity: 'critical', reason: 'Critical: the answer holds a payment card number.' });
    expect(judge([{ id: 1, card: '4242 4242 4242 4241' }])).toBeUndefined();
    expect(
      judge([
        { id: 1, payout: 'DE89 3704 0044 0532 0130 00' },
        { id: 2, payout: 'GB82 WEST 1234 5698 7654 32' },
      ]),
    ).toMatchObject({
      severity: 'high',
      reason: 'High: the answer holds records of 2 people with a bank account number.',
    });
  });

  it('masks emails, hashes, secrets and personal values in the excerpt, keeping structure', () => {
    const json = [
      { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', password_hash: BCRYPT },
      { id: 2, name: 'Bob', email: 'bob@example.com' },
      { id: 3, name: 'Cy', email: 'cy@example.com' },
    ];
    const excerpt = maskedJsonExcerpt(json);
    expect(excerpt).toContain('"email": "a***@example.com"');
    expect(excerpt).toContain('"password_hash": "$2b$****"');
    expect(excerpt).toContain('… 1 more');
    expect(excerpt).not.toContain('ada@example.com');
    expect(excerpt).not.toContain('Lovelace');
    expect(excerpt).not.toContain('7946');
    expect(excerpt).not.toContain('N9qo8uLO');
    expect(maskEmail('john.doe@example.com')).toBe('j***@example.com');
  });
});

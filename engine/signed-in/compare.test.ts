import { describe, expect, it } from 'vitest';
import { crossListing, crossRead } from './compare';

const A = '0f8fad5b-d9cb-469f-a165-70867728950e';
const B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const C = '3d6f0a2e-8b1c-4e5d-9f7a-2b4c6d8e0f1a';
const both = [
  { login: 'a@x.test', signedIn: true, userId: A },
  { login: 'b@x.test', signedIn: true, userId: B },
];
const one = both.slice(0, 1);

describe('crossRead', () => {
  const valid: Array<[string, Parameters<typeof crossRead>]> = [
    [
      'each reads only her own rows',
      [
        both,
        [
          { index: 0, rows: [{ id: 1, user_id: A }] },
          { index: 1, rows: [{ id: 2, user_id: B }] },
        ],
        'orders',
      ],
    ],
    ['one account, only her own profile', [one, [{ index: 0, rows: [{ id: A, full_name: 'Alice' }] }], 'profiles']],
    ['public rows owned by nobody', [both, [{ index: 0, rows: [{ id: 1, name: 'Mug' }] }], 'products']],
    ['an owner column holding a non-id value', [one, [{ index: 0, rows: [{ id: 1, owner: 'marketing team' }] }], 'campaigns']],
    ['an id column outside a people table', [one, [{ index: 0, rows: [{ id: C, title: 'Post' }] }], 'posts']],
    ['an account that did not sign in', [[{ login: 'a@x.test', signedIn: false }], [{ index: 0, rows: [{ user_id: C }] }], 'orders']],
  ];
  it.each(valid)('nothing when %s', (_name, args) => {
    expect(crossRead(...args)).toBeUndefined();
  });

  it('names the other test account whose rows one account reads', () => {
    const found = crossRead(
      both,
      [
        {
          index: 0,
          rows: [
            { id: 1, user_id: A },
            { id: 2, user_id: B },
          ],
        },
      ],
      'orders',
    );
    expect(found).toEqual({ reader: 0, rows: [{ id: 2, user_id: B }], column: 'user_id', owner: 1, read: 2 });
  });

  it("takes, with one account, an owner column holding another user's id as the proof", () => {
    expect(crossRead(one, [{ index: 0, rows: [{ id: 9, created_by: C }] }], 'notes')).toMatchObject({ reader: 0, column: 'created_by', owner: undefined });
    expect(crossRead(one, [{ index: 0, rows: [{ id: A }, { id: C, email: 'c@x.test' }] }], 'profiles')).toMatchObject({ column: 'id', rows: [{ id: C, email: 'c@x.test' }] });
    expect(crossRead(one, [{ index: 0, rows: [{ ownerId: C }] }], 'docs')).toMatchObject({ column: 'ownerId' });
  });

  it("finds another account's id in any column (a row she reads as her own)", () => {
    expect(crossRead(both, [{ index: 1, rows: [{ id: 3, recipient: A }] }], 'messages')).toMatchObject({ reader: 1, column: 'recipient', owner: 0 });
  });
});

describe('crossListing', () => {
  it("reports folders named after other users, and nothing for one's own folder", () => {
    expect(
      crossListing(both, [
        { index: 0, names: [A] },
        { index: 1, names: [B] },
      ]),
    ).toBeUndefined();
    expect(crossListing(both, [{ index: 0, names: ['logo.png', 'public'] }])).toBeUndefined();
    expect(crossListing(both, [{ index: 0, names: [A, B, C] }])).toEqual({ reader: 0, names: [B, C], owner: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { chooseArguments, hintedParameters, idsInRows, idsInTexts } from './function-arguments';

const answer = (hint: string | null, code = 'PGRST202') => JSON.stringify({ code, details: null, hint, message: 'Could not find the function' });
const U1 = '5b0c9a1e-3f2d-4c8b-9a7e-1d2c3b4a5f60';
const U2 = '0f9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f';

describe('hintedParameters', () => {
  it('reads the parameters PostgREST names for the same function', () => {
    expect(hintedParameters(answer('Perhaps you meant to call the function public.get_booking(p_id)'), 'get_booking')).toEqual(['p_id']);
    expect(hintedParameters(answer('Perhaps you meant to call the function api.list_slots(from_date, to_date)'), 'list_slots')).toEqual(['from_date', 'to_date']);
  });
  it.each([
    ['another function', answer('Perhaps you meant to call the function public.track_event'), 'track_ad'],
    ['another function with parameters', answer('Perhaps you meant to call the function public.get_user(p_id)'), 'get_booking'],
    ['no hint', answer(null), 'get_booking'],
    ['another error', answer('Perhaps you meant to call the function public.get_booking(p_id)', '42501'), 'get_booking'],
    ['not JSON', '<html>', 'get_booking'],
  ])('nothing for %s', (_name, body, fn) => {
    expect(hintedParameters(body, fn)).toBeUndefined();
  });
});

describe('chooseArguments', () => {
  const rows = idsInRows([
    { table: 'services', row: { id: 7, name: 'Cut' } },
    { table: 'bookings', row: { id: U1, service_id: 7, customer_id: U2 } },
  ]);
  it('prefers the id of the table the function or parameter is named after', () => {
    expect(chooseArguments('get_booking', ['p_id'], rows)).toEqual([{ param: 'p_id', id: { value: U1, table: 'bookings', column: 'id' } }]);
    expect(chooseArguments('booking_details', ['p_service_id'], rows)?.[0]!.id.value).toBe('7');
    expect(chooseArguments('get_customer', ['p_customer_id'], rows)?.[0]!.id.value).toBe(U2);
  });
  it('never guesses a parameter that is not an id, and needs an id to have been read', () => {
    expect(chooseArguments('find_invoice', ['p_email'], rows)).toBeUndefined();
    expect(chooseArguments('get_booking', ['p_id', 'p_limit'], rows)).toBeUndefined();
    expect(chooseArguments('get_booking', ['p_id'], [])).toBeUndefined();
  });
  it('finds ids in filters and URLs the site asked for', () => {
    expect(idsInTexts([`https://x.supabase.co/rest/v1/bookings?select=*&user_id=eq.${U2}`, `https://app.test/booking/${U1}`])).toEqual([
      { value: U2, column: 'user_id' },
      { value: U1, column: 'id' },
    ]);
  });
});

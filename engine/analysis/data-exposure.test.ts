import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { classifyValue, describeSightings, ibanValid, luhnValid, rateExposure } from './data-exposure';

const BCRYPT = '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';

describe('checksums', () => {
  it('Luhn accepts test card numbers and refuses a changed digit', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('378282246310005')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
  });
  it('IBAN mod 97 accepts real shapes and refuses a changed digit', () => {
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('DE89370400440532013001')).toBe(false);
  });
});

describe('classifyValue', () => {
  it.each([
    ['email', 'jane.doe@gmail.com', 'email'],
    ['contact', '+44 7700 900123', 'phone'],
    ['phone', '(555) 123-4567', 'phone'],
    ['card', '4242 4242 4242 4242', 'card-number'],
    ['payout_account', 'DE89 3704 0044 0532 0130 00', 'iban'],
    ['password', BCRYPT, 'password-hash'],
    ['reset_token', '9f1c2b7e-4d3a-4c1e-9b8f-2a6d5e4c3b21', 'secret'],
    ['note', 'sk_live_51HqLyjWDarjtT1zdp7dcXYZabcdefGHIJKLmnopQRSTuvwx', 'secret'],
    ['street_address', '12 Elm Street', 'address'],
    ['date_of_birth', '1990-04-12', 'birth-date'],
    ['last_login_ip', '203.0.113.7', 'ip-address'],
    ['customer_name', 'Maria Lopez', 'person-name'],
  ])('%s = %s is %s', (column, value, kind) => {
    expect(classifyValue(column, value)?.kind).toBe(kind);
  });

  it.each([
    ['ip_address', '6f1e2d3c-0b9a-4877-a665-5f4e3d2c1b0a'],
    ['email', 'n/a'],
    ['email', 'support@salon.example'],
    ['token', 'welcome-banner'],
    ['token', 'spring'],
    ['phone', 'ask at the desk'],
    ['id', 4242424242424242],
    ['price', 4500],
    ['name', 'Deep Tissue Massage'],
    ['created_at', '2025-05-01T12:00:00Z'],
    ['anon_key', fakeSupabaseKey('salon', 'anon', 3)],
  ])('%s = %s is nothing private', (column, value) => {
    expect(classifyValue(column, value)).toBeUndefined();
  });

  it('counts a plain name as a person only in a table of people', () => {
    expect(classifyValue('name', 'Maria Lopez', true)?.kind).toBe('person-name');
    expect(classifyValue('name', 'Maria Lopez', false)).toBeUndefined();
  });

  it('looks at a bounded part of a long value', () => {
    expect(classifyValue('email', `${'a'.repeat(300)}@example.com`)).toBeUndefined();
  });
});

describe('rateExposure', () => {
  it('rates a booking with a name and a phone high and says why', () => {
    const rating = rateExposure({
      columns: ['id', 'customer_name', 'phone', 'starts_at'],
      row: { id: 7, customer_name: 'Maria Lopez', phone: '+1 415 555 0134', starts_at: '2025-06-01T10:00:00Z' },
      subject: 'bookings',
    });
    expect(rating.severity).toBe('high');
    expect(rating.reason).toBe("High: the one row read holds a phone number and a person's name.");
    expect(rating.kinds).toEqual(['phone', 'person-name']);
  });

  it('rates an email and a phone high with the sentence a user reads', () => {
    expect(rateExposure({ columns: ['email', 'phone'], row: { email: 'kim@mail.example', phone: '+33612345678' } }).reason).toBe(
      'High: the one row read holds an email address and a phone number.',
    );
  });

  it('rates credentials and card numbers critical', () => {
    expect(rateExposure({ columns: ['id', 'password_hash'], row: { id: 1, password_hash: BCRYPT } }).severity).toBe('critical');
    expect(rateExposure({ columns: ['card_number'], row: { card_number: '5555555555554444' } }).severity).toBe('critical');
  });

  it('rates a public catalogue low and says so', () => {
    const rating = rateExposure({ columns: ['id', 'name', 'price', 'duration'], row: { id: 3, name: 'Deep Tissue Massage', price: 80, duration: 60 }, subject: 'services' });
    expect(rating.severity).toBe('low');
    expect(rating.reason).toBe('Low: the rows look like public catalogue content (name, price, duration); nothing personal was seen.');
  });

  it('does not raise the rating for columns named like private data whose values are not', () => {
    const rating = rateExposure({
      columns: ['id', 'ip_address', 'token', 'email'],
      row: { id: 1, ip_address: '6f1e2d3c-0b9a-4877-a665-5f4e3d2c1b0a', token: 'summer-sale', email: 'n/a' },
      subject: 'visits',
    });
    expect(rating.severity).toBe('low');
    expect(rating.misnamed).toEqual(['ip_address', 'token', 'email']);
    expect(rating.reason).toMatch(/^Low: columns are named like private data \(ip_address, token, email\) but the values read are not/);
  });

  it("rates a place's address low and a person's address high", () => {
    const shop = rateExposure({ columns: ['name', 'street_address'], row: { name: 'Summer Fair', street_address: '12 Elm Street' }, subject: 'events' });
    expect(shop.severity).toBe('low');
    expect(shop.reason).toBe("Low: the one row read holds a street address but nothing that ties it to a person (likely a place's address).");
    expect(rateExposure({ columns: ['full_name', 'address'], row: { full_name: 'Maria Lopez', address: '12 Elm Street' }, subject: 'orders' }).severity).toBe('high');
    expect(rateExposure({ columns: ['address'], row: { address: '12 Elm Street' }, subject: 'customers' }).severity).toBe('medium');
  });

  it("rates a business listing's phone and address low, and the same contact details of a customer high", () => {
    const row = { name: 'Glow Studio Mitte', phone: '+49 30 1234567', street_address: '12 Elm Street', opens_at: '09:00' };
    const listing = rateExposure({ columns: Object.keys(row), row, subject: 'locations' });
    expect(listing.severity).toBe('low');
    expect(listing.reason).toBe('Low: the one row read holds a phone number and a street address of a place or business ("locations"), not of a person.');
    expect(rateExposure({ columns: Object.keys(row), row, subject: 'bookings' }).severity).toBe('high');
    expect(rateExposure({ columns: ['phone', 'full_name'], row: { phone: '+49 30 1234567', full_name: 'Maria Lopez' }, subject: 'salon_clients' }).severity).toBe('high');
  });

  it('falls back to names, at most medium, when no value was read', () => {
    expect(rateExposure({ columns: ['email'] }).severity).toBe('medium');
    expect(rateExposure({ columns: ['title'] }).severity).toBe('low');
  });

  it('keeps only masked samples', () => {
    const rating = rateExposure({ columns: ['email', 'card'], row: { email: 'jane.doe@gmail.com', card: '4242424242424242' } });
    const text = JSON.stringify(rating) + describeSightings(rating).join('\n');
    expect(text).not.toContain('jane.doe');
    expect(text).not.toContain('42424242');
    expect(describeSightings(rating)).toEqual(['email: j***@gmail.com (an email address)', 'card: ****4242 (a payment card number)']);
  });
});

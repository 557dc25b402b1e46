// How bad it is that anyone can read a table, a collection or an API answer, judged by what it returned: the values
// of one record (an email address, a phone number, a card number that passes Luhn, a password hash, a live token)
// together with the column names. A name alone never raises the rating when the value read contradicts it (an
// `ip_address` holding random ids, an `email` holding "n/a"); public catalogue content (services, prices, posts) is
// low. Values are classified in memory and dropped: a rating keeps kinds and masked samples only.
import type { Severity } from '../../common/scan';
import { supabaseJwtRole } from '../secrets/jwt';
import { maskSecret } from '../secrets/mask';
import { shannonEntropy } from '../secrets/entropy';
import { scanText } from '../secrets/scan';
import { normaliseFieldName, sensitiveFields } from './sensitive-fields';

/** What a value was recognised as. */
export type DataKind =
  'password-hash' | 'secret' | 'card-number' | 'iban' | 'email' | 'phone' | 'address' | 'birth-date' | 'id-number' | 'health-or-pay' | 'ip-address' | 'person-name';

/** One recognised value: its column and a masked sample (never the value). */
export interface Sighting {
  kind: DataKind;
  column: string;
  sample: string;
}

export interface ExposureRating {
  severity: Severity;
  /** One sentence that says why, starting with the severity: "High: the one row read holds an email address." */
  reason: string;
  /** Distinct kinds seen, most serious first. */
  kinds: DataKind[];
  /** At most one sighting per column, masked. */
  sightings: Sighting[];
  /** Columns named like sensitive data whose values were not (or were placeholders). */
  misnamed: string[];
}

/** Longest value looked at: classifying needs the shape, not a whole document. */
const MAX_VALUE = 256;
/** Most fields of one record looked at. */
const MAX_FIELDS = 100;

const ORDER: readonly DataKind[] = [
  'password-hash',
  'secret',
  'card-number',
  'iban',
  'id-number',
  'health-or-pay',
  'email',
  'phone',
  'birth-date',
  'address',
  'ip-address',
  'person-name',
];
const CRITICAL = new Set<DataKind>(['password-hash', 'secret', 'card-number']);
const HIGH = new Set<DataKind>(['iban', 'id-number', 'health-or-pay', 'email', 'phone', 'birth-date']);

const NOUN: Record<DataKind, string> = {
  'password-hash': 'a password hash',
  secret: 'a token or API key',
  'card-number': 'a payment card number',
  iban: 'a bank account number',
  'id-number': 'an identity document number',
  'health-or-pay': 'health or pay data',
  email: 'an email address',
  phone: 'a phone number',
  'birth-date': 'a date of birth',
  address: 'a street address',
  'ip-address': 'an IP address',
  'person-name': "a person's name",
};

/** Password hashes by format: bcrypt, argon2, sha-crypt ($5$/$6$), PBKDF2 (Django), scrypt, phpass. */
export const PASSWORD_HASH =
  /^(?:\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|\$argon2(?:id|i|d)\$[^\s"]{20,}|\$[56]\$[^\s"$]{0,40}\$?[./A-Za-z0-9]{20,}|pbkdf2_sha(?:1|256|512)\$\d+\$[^\s"$]+\$[^\s"]+|\$scrypt\$[^\s"]{20,}|\$[PH]\$[./A-Za-z0-9]{31})$/;
export const EMAIL_VALUE = /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}$/;
/** Addresses of a role, not a person: a site's support or sales inbox is public on purpose. */
export const ROLE_EMAIL =
  /^(?:support|help|helpdesk|info|contact|hello|hi|sales|team|no-?reply|admin|billing|press|media|privacy|security|legal|jobs|careers|office|mail|enquiries|inquiries|feedback|abuse|postmaster|webmaster|marketing|partners|service|orders|shop|store|bookings?|reservations?)@/i;
/** Values that stand for "nothing here". */
export const PLACEHOLDER = /^(?:n\/?a|none|null|nil|undefined|unknown|empty|tbd|todo|test|hidden|private|redacted|-+|\*+|x+|0+|\?+|false|true)$/i;
/** International numbers: + and 8 to 15 digits once separators are dropped. */
export const E164 = /^\+[1-9]\d{7,14}$/;
/** National numbers as people type them: digits with spaces, dots, dashes or brackets, 7 to 15 digits in all. */
export const NATIONAL_PHONE = /^\(?\d{2,5}\)?[\s.-]?\d{2,5}(?:[\s.-]?\d{2,5}){0,3}$/;
export const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;
/** Card numbers by issuer prefix (Visa, Mastercard, Amex, Discover, JCB, Diners), 13 to 19 digits. */
export const CARD_SHAPE = /^(?:4\d{12}(?:\d{3}){0,2}|5[1-5]\d{14}|2[2-7]\d{14}|3[47]\d{13}|6(?:011|5\d\d)\d{12,15}|35\d{14}|3(?:0[0-5]|[689]\d)\d{11})$/;
/** A number and a street word, in English or the usual European forms ("12 Elm St", "Hauptstraße 5", "rue de la Paix 3"). */
export const STREET =
  /\b(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|court|ct|place|pl|square|sq|terrace|highway|hwy|parkway|pkwy|close|crescent|row|strasse|straße|str|weg|gasse|platz|allee|rue|via|calle|avenida|laan|straat|gade|vej)\b/i;
export const IPV4 = /^(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
export const IPV6 = /^[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}$/i;
export const DATE_VALUE = /^(?:\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4})(?:[T ][\d:.]{5,15}(?:Z|[+-]\d{2}:?\d{2})?)?$/;
export const JWT_VALUE = /^eyJ[\w-]{5,4000}\.eyJ[\w-]{5,8000}\.[\w-]{0,2000}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Column names, normalised to snake_case. Anchored to underscores so `tokenizer` or `emails_sent_count` stay out.
const PHONE_COLUMN = /(?:^|_)(?:phone|phone_number|mobile|tel|telephone|cell|whatsapp|contact_number)(?:$|_)/;
const SECRET_COLUMN =
  /(?:^|_)(?:token|secret|api_key|apikey|private_key|access_token|refresh_token|password|passwd|pwd|otp|totp|mfa_secret|recovery_code|reset_code|auth_code|webhook_secret|client_secret)(?:$|_)/;
/** Tokens handed to the client on purpose: CSRF tokens and paging cursors. */
const NOT_SECRET_COLUMN = /(?:^|_)(?:csrf|xsrf|page|cursor|next|continuation)(?:$|_)/;
const PLAIN_PASSWORD_COLUMN = /^(?:password|passwd|pwd|pass|passphrase|plain_password|password_plain)$/;
const ADDRESS_COLUMN = /(?:^|_)(?:address|street|street_address|address_line\d?|addr|home_address|billing_address|shipping_address)(?:$|_)/;
const BIRTH_COLUMN = /(?:^|_)(?:dob|date_of_birth|birth_?date|birthday)$/;
/** Account numbers without the IBAN checksum: named so, and mostly digits. */
const BANK_COLUMN = /(?:^|_)(?:bank_account|account_number|routing_number|sort_code|bsb)(?:$|_)/;
const ID_NUMBER_COLUMN = /(?:^|_)(?:ssn|social_security_number|national_id|passport(?:_number)?|drivers?_licen[cs]e(?:_number)?|tax_id|nin|id_number|personal_number)$/;
const SPECIAL_COLUMN = /(?:^|_)(?:salary|income|diagnosis|medical_record|health_record|insurance_number|medication|condition|allergies)$/;
const IP_COLUMN = /(?:^|_)(?:ip|ip_address|ip_addr|last_login_ip|remote_addr|client_ip)$/;
const PERSON_NAME_COLUMN =
  /^(?:full_name|first_name|last_name|given_name|family_name|surname|customer_name|client_name|guest_name|patient_name|contact_name|owner_name|buyer_name|attendee_name|student_name|member_name)$/;
/** A plain `name` is a person only in a table of people (in `bookings` or `orders` it is as often the service's). */
const PEOPLE_TABLE =
  /(?:user|customer|member|account|profile|employee|student|patient|contact|lead|people|person|staff|subscriber|client|applicant|candidate|signup|guest|attendee)/i;
/** Tables of places and businesses: their phone, email and address are the business's, public on purpose. */
const PLACE_TABLE = /(?:location|store|shop|branch|venue|restaurant|business|compan|clinic|office|salon|hotel|studio|gym|agenc|organi[sz]ation|listing|directory|place)/i;
const CONTACT_KINDS = new Set<DataKind>(['phone', 'email', 'address']);
const PERSON_NAME_VALUE = /^[A-ZÀ-Þ][a-zà-ÿ'’-]{1,30}(?: [A-ZÀ-Þ][a-zà-ÿ'’.-]{0,30}){1,3}$/;
/** Columns of shop windows: what a public catalogue, menu, price list or blog shows. */
const CATALOGUE_COLUMN =
  /^(?:name|title|slug|description|summary|price|price_cents|amount|currency|duration|duration_minutes|category|tags|image|image_url|thumbnail|photo_url|sku|stock|rating|opens_at|closes_at|open|close|opening_hours|hours|day|weekday|published|published_at|is_published|excerpt|content|body|author|sort_order|position|featured|active|is_active|url|link|icon|color|label|value|key|locale)$/;

/** Luhn's checksum, the one every payment card number carries. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** ISO 13616 check: move the first four characters to the end, letters to numbers, mod 97 must be 1. */
export function ibanValid(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const code = ch.charCodeAt(0);
    const n = code >= 65 ? code - 55 : code - 48;
    rest = (n > 9 ? rest * 100 + n : rest * 10 + n) % 97;
  }
  return rest === 1;
}

function looksLikeSecret(text: string, column: string): boolean {
  if (JWT_VALUE.test(text)) {
    // The project's own anon key stored in a settings row is public by design; any other JWT is somebody's session.
    return supabaseJwtRole(text)?.role !== 'anon';
  }
  if (scanText(text, 'html').some((hit) => !hit.public && hit.severity !== 'info' && hit.severity !== 'low')) return true;
  if (!SECRET_COLUMN.test(column) || NOT_SECRET_COLUMN.test(column) || text.length < 16 || /\s/.test(text)) return false;
  // A random-looking value in a column named token or secret: a uuid or a long high-entropy string.
  return UUID.test(text) || (text.length >= 20 && shannonEntropy(text) >= 3.5);
}

const mask = (text: string): string => (text.length <= 4 ? '****' : `***${text.slice(-2)}`);
const maskMail = (email: string): string => `${email[0]}***${email.slice(email.indexOf('@'))}`;

/** What one value is, given its column; undefined when it is nothing private. */
export function classifyValue(columnName: string, value: unknown, peopleTable = false): Sighting | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const column = normaliseFieldName(columnName);
  const text = String(value).trim().slice(0, MAX_VALUE);
  if (!text || PLACEHOLDER.test(text)) return undefined;
  const sight = (kind: DataKind, sample: string): Sighting => ({ kind, column: columnName, sample });
  if (typeof value === 'string') {
    if (PASSWORD_HASH.test(text)) return sight('password-hash', `${text.slice(0, 7)}…`);
    if (looksLikeSecret(text, column)) return sight('secret', maskSecret(text));
    if (PLAIN_PASSWORD_COLUMN.test(column) && text.length >= 4) return sight('secret', maskSecret(text));
    if (EMAIL_VALUE.test(text)) return ROLE_EMAIL.test(text) ? undefined : sight('email', maskMail(text));
  }
  const compact = text.replace(/[\s().-]/g, '');
  if (!/(?:^|_)id$/.test(column) && CARD_SHAPE.test(compact) && luhnValid(compact)) return sight('card-number', `****${compact.slice(-4)}`);
  const iban = text.replace(/\s/g, '').toUpperCase();
  if (IBAN_SHAPE.test(iban) && ibanValid(iban)) return sight('iban', `${iban.slice(0, 2)}**…${iban.slice(-2)}`);
  if (BANK_COLUMN.test(column) && /^[\d\s-]{6,34}$/.test(text)) return sight('iban', mask(compact));
  if (E164.test(compact) && (text.startsWith('+') || PHONE_COLUMN.test(column))) return sight('phone', mask(compact));
  if (PHONE_COLUMN.test(column) && NATIONAL_PHONE.test(text) && compact.length >= 7 && compact.length <= 15 && /^\+?\d+$/.test(compact)) return sight('phone', mask(compact));
  if (ID_NUMBER_COLUMN.test(column) && /[A-Za-z0-9]{4}/.test(text)) return sight('id-number', mask(text));
  if (BIRTH_COLUMN.test(column) && DATE_VALUE.test(text)) return sight('birth-date', `${text.slice(0, 2)}**-**-**`);
  if (SPECIAL_COLUMN.test(column)) return sight('health-or-pay', mask(text));
  if (IP_COLUMN.test(column) && (IPV4.test(text) || (text.includes(':') && IPV6.test(text)))) return sight('ip-address', mask(text));
  if (ADDRESS_COLUMN.test(column) && /\d/.test(text) && /[A-Za-z]{3}/.test(text) && STREET.test(text)) return sight('address', mask(text));
  if ((PERSON_NAME_COLUMN.test(column) || (peopleTable && /^(?:name|display_name)$/.test(column))) && PERSON_NAME_VALUE.test(text)) return sight('person-name', `${text[0]}***`);
  return undefined;
}

/** Kinds, most serious first, each said once. */
function sortKinds(kinds: Iterable<DataKind>): DataKind[] {
  const set = new Set(kinds);
  return ORDER.filter((kind) => set.has(kind));
}

function list(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** True when every kind seen is a contact detail of a place or business: a listing, not a person. */
function placeContact(kinds: readonly DataKind[], subject: string): boolean {
  return kinds.length > 0 && PLACE_TABLE.test(subject) && !PEOPLE_TABLE.test(subject) && kinds.every((kind) => CONTACT_KINDS.has(kind));
}

function severityOf(kinds: readonly DataKind[], people: boolean): Severity {
  if (kinds.some((kind) => CRITICAL.has(kind))) return 'critical';
  if (kinds.some((kind) => HIGH.has(kind))) return 'high';
  // A street address beside a person's name reaches that person; alone, outside a table of people, it is as likely a
  // shop's or a venue's (a public `locations` table).
  if (kinds.includes('address') && kinds.includes('person-name')) return 'high';
  if (kinds.length === 1 && kinds[0] === 'address' && !people) return 'low';
  if (kinds.length > 0) return 'medium';
  return 'low';
}

const WORD: Record<Severity, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', info: 'Info' };

export interface RateInput {
  /** Column or field names of what was read. */
  columns: readonly string[];
  /** The one record read, when there was one. */
  row?: Record<string, unknown>;
  /** The table, collection or path: `name` counts as a person's in a table of people. */
  subject?: string;
  /** How the record is spoken of in the reason: "the one row read", "the first document". */
  what?: string;
}

/** Severity and the one-sentence reason for something anyone can read, from its record's values and column names. */
export function rateExposure(input: RateInput): ExposureRating {
  const what = input.what ?? 'the one row read';
  const people = PEOPLE_TABLE.test(input.subject ?? '');
  const named = sensitiveFields(input.columns);
  if (!input.row) {
    // No values to look at (a count only): the names are all there is, and they only hint.
    const severity: Severity = named.length > 0 ? 'medium' : 'low';
    const reason =
      named.length > 0
        ? `Medium: columns are named like private data (${named.slice(0, 6).join(', ')}), but no value could be read to confirm it.`
        : 'Low: no record could be read, and no column is named like private data.';
    return { severity, reason, kinds: [], sightings: [], misnamed: [] };
  }
  const sightings: Sighting[] = [];
  for (const [column, value] of Object.entries(input.row).slice(0, MAX_FIELDS)) {
    const sighting = classifyValue(column, value, people);
    if (sighting) sightings.push(sighting);
  }
  const kinds = sortKinds(sightings.map((s) => s.kind));
  const seen = new Set(sightings.map((s) => s.column));
  const misnamed = named.filter((name) => !seen.has(name));
  const place = placeContact(kinds, input.subject ?? '');
  const severity = place ? 'low' : severityOf(kinds, people);
  let reason: string;
  if (place) reason = `Low: ${what} holds ${list(kinds.map((kind) => NOUN[kind]))} of a place or business ("${input.subject}"), not of a person.`;
  else if (kinds.length > 0 && severity === 'low') reason = `Low: ${what} holds a street address but nothing that ties it to a person (likely a place's address).`;
  else if (kinds.length > 0) reason = `${WORD[severity]}: ${what} holds ${list(kinds.map((kind) => NOUN[kind]))}.`;
  else {
    const catalogue = input.columns.filter((c) => CATALOGUE_COLUMN.test(normaliseFieldName(c)));
    const shown = (catalogue.length > 0 ? catalogue : input.columns).slice(0, 4).join(', ');
    reason =
      catalogue.length >= 2 && misnamed.length === 0
        ? `Low: the rows look like public catalogue content (${shown}); nothing personal was seen.`
        : misnamed.length > 0
          ? `Low: columns are named like private data (${misnamed.slice(0, 4).join(', ')}) but the values read are not; nothing personal was seen.`
          : `Low: ${what} holds no personal data or credentials (${shown}).`;
  }
  return { severity, reason, kinds, sightings, misnamed };
}

/** The kinds as a phrase: "an email address and a phone number". */
export function describeKinds(kinds: readonly DataKind[]): string {
  return list(sortKinds(kinds).map((kind) => NOUN[kind]));
}

/** "High", "Medium", ...: how a reason sentence starts. */
export const severityWord = (severity: Severity): string => WORD[severity];

/** The sightings as evidence lines: "email: j***@example.com (an email address)". */
export function describeSightings(rating: ExposureRating): string[] {
  return rating.sightings.slice(0, 12).map((s) => `${s.column}: ${s.sample} (${NOUN[s.kind]})`);
}

/** The first record of a JSON answer (an array's first object, or the object itself). */
export function firstRecord(value: unknown): Record<string, unknown> | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return first !== null && typeof first === 'object' && !Array.isArray(first) ? (first as Record<string, unknown>) : undefined;
}

// What a JSON answer reveals: credentials (password hashes, plaintext passwords, provider keys), personal data of
// people (emails, phones, dates of birth, ids, addresses) and how many people. A public product list is none of
// these. Pure; the excerpt it builds keeps structure and masks every private value.
import type { Severity } from '../../common/scan';
import { maskAll, maskSecret } from '../secrets/mask';
import { maskSecrets } from './probe-answers';
import { scanText } from '../secrets/scan';
import { normaliseFieldName } from './sensitive-fields';
import { classifyValue, describeKinds, PLACEHOLDER, severityWord, type DataKind } from './data-exposure';

import { PASSWORD_HASH } from './data-exposure';

export { PASSWORD_HASH };
const EMAIL = /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}$/;
/** Addresses of a role, not a person: a site's support or sales inbox is public on purpose. */
const ROLE_ADDRESS =
  /^(?:support|help|helpdesk|info|contact|hello|hi|sales|team|no-?reply|admin|billing|press|media|privacy|security|legal|jobs|careers|office|mail|enquiries|inquiries|feedback|abuse|postmaster|webmaster|marketing|partners|service|orders|shop|store)@/i;
const PASSWORD_KEY = /^(?:password|passwd|pwd|pass|passphrase|password_hash|hashed_password|encrypted_password|pass_hash|pw_hash|password_digest|hash|salt)$/;
const SECRET_KEY =
  /(?:^|_)(?:api_key|apikey|secret|secret_key|client_secret|private_key|access_token|refresh_token|session_token|auth_token|reset_token|otp|totp_secret|mfa_secret|recovery_code|webhook_secret)(?:$|_)/;
/** Fields that identify or reach one person; the value must look the part. */
const PERSONAL: Array<[RegExp, RegExp]> = [
  [/(?:^|_)(?:e_?mail|email_address|contact_email)$/, EMAIL],
  [/(?:^|_)(?:phone|phone_number|mobile|tel|telephone|cell)$/, /^[+(]?[\d\s().-]{7,20}$/],
  [/(?:^|_)(?:dob|date_of_birth|birth_?date|birthday)$/, /\d/],
  [/(?:^|_)(?:ssn|social_security_number|national_id|passport(?:_number)?|drivers?_license|tax_id|nin)$/, /\w{4}/],
  [/(?:^|_)(?:credit_card|card_number|iban|bank_account|account_number|routing_number)$/, /\d{4}/],
  [/(?:^|_)(?:salary|income|diagnosis|medical_record|health_record|insurance_number)$/, /./],
];
/** Weaker signals, counted only on records that already hold a person's data or sit in a people collection. */
const CONTACT = /(?:^|_)(?:address|street|street_address|postal_code|zip|zip_code|ip|ip_address|last_login_ip)$/;
const NAME = /^(?:name|full_name|first_name|last_name|display_name|username|user_name|given_name|family_name)$/;
const PEOPLE = /(?:user|customer|member|account|profile|employee|student|patient|contact|lead|people|person|staff|subscriber|client|applicant|candidate|signup)/i;

export interface PrivateData {
  severity: Severity;
  /** Field names (normalised) holding credentials. */
  credentials: string[];
  /** Field names holding personal data. */
  personal: string[];
  /** Records with a person's data. */
  people: number;
  /** The people are known by id and name only. */
  namesOnly: boolean;
  /** Provider secrets found by the secret rules (labels). */
  secrets: string[];
  /** Their raw values, only to mask them in excerpts: never output. */
  secretValues: string[];
  /** One sentence saying why it has its severity. */
  reason: string;
}

interface Walk {
  kinds: Set<DataKind>;
  credentials: Set<string>;
  personal: Set<string>;
  people: number;
  /** Records of a people collection with an id and a name but nothing more personal. */
  named: number;
  peopleCollection: boolean;
  nodes: number;
}

const CREDENTIAL_KINDS = new Set<DataKind>(['password-hash', 'secret', 'card-number']);

function judgeRecord(record: Record<string, unknown>, walk: Walk, inPeople: boolean): void {
  let personal = 0;
  let named = false;
  const weak: string[] = [];
  for (const [key, value] of Object.entries(record).slice(0, 100)) {
    const name = normaliseFieldName(key);
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const text = String(value).trim();
    if (!text || ROLE_ADDRESS.test(text)) continue;
    // The values decide (data-exposure.ts): a column named like private data whose value is not counts for nothing.
    const sighting = classifyValue(key, value, inPeople);
    if (sighting) walk.kinds.add(sighting.kind);
    if (sighting && CREDENTIAL_KINDS.has(sighting.kind)) walk.credentials.add(name);
    else if (PASSWORD_KEY.test(name) && typeof value === 'string' && text.length >= 4 && !PLACEHOLDER.test(text)) {
      walk.credentials.add(name);
      walk.kinds.add('secret');
    } else if (sighting && (sighting.kind === 'address' || sighting.kind === 'ip-address')) weak.push(name);
    else if (sighting && sighting.kind !== 'person-name') {
      personal++;
      walk.personal.add(name);
    } else if (CONTACT.test(name)) weak.push(name);
    else if (NAME.test(name) || sighting?.kind === 'person-name') named = true;
  }
  if (personal === 0 && inPeople && named && weak.length === 0 && ('id' in record || 'uuid' in record || 'user_id' in record || 'userId' in record)) walk.named++;
  if (personal === 0 && !(inPeople && named && weak.length > 0)) return;
  for (const name of weak) walk.personal.add(name);
  walk.people++;
}

function visit(value: unknown, walk: Walk, depth: number, inPeople: boolean): void {
  if (depth > 6 || walk.nodes > 5_000 || value === null || typeof value !== 'object') return;
  walk.nodes++;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 500)) visit(item, walk, depth + 1, inPeople);
    return;
  }
  const record = value as Record<string, unknown>;
  judgeRecord(record, walk, inPeople);
  for (const [key, child] of Object.entries(record)) {
    if (child !== null && typeof child === 'object') visit(child, walk, depth + 1, inPeople || PEOPLE.test(key));
  }
}

/** Personal data and credentials in a parsed JSON answer; undefined when it holds neither. `hint` is the URL path. */
export function privateDataIn(json: unknown, body: string, hint: string): PrivateData | undefined {
  const walk: Walk = { kinds: new Set(), credentials: new Set(), personal: new Set(), people: 0, named: 0, peopleCollection: PEOPLE.test(hint), nodes: 0 };
  visit(json, walk, 0, walk.peopleCollection);
  const hits = scanText(body.slice(0, 200_000), 'html').filter((hit) => !hit.public && hit.severity !== 'info' && hit.severity !== 'low');
  const secrets = hits.map((hit) => hit.label);
  const credentials = [...walk.credentials];
  // A list of user records with ids and names only: who the users are, without a way to reach them.
  const namedOnly = walk.people === 0 && walk.named >= 2;
  if (credentials.length === 0 && secrets.length === 0 && walk.people === 0 && !namedOnly) return undefined;
  const severity: Severity = credentials.length > 0 || secrets.length > 0 ? 'critical' : walk.people >= 2 ? 'high' : 'medium';
  const people = namedOnly ? walk.named : walk.people;
  if (secrets.length > 0) walk.kinds.add('secret');
  const kinds = describeKinds([...walk.kinds].filter((kind) => kind !== 'person-name'));
  const whom = people === 0 ? '' : people === 1 ? "one person's record" : `records of ${people} people`;
  const reason = namedOnly
    ? `${severityWord(severity)}: the answer lists ${people} users by id and name.`
    : `${severityWord(severity)}: the answer holds ${[whom, kinds].filter(Boolean).join(' with ')}.`;
  return { severity, credentials, personal: [...walk.personal], people, namesOnly: namedOnly, secrets: [...new Set(secrets)], secretValues: hits.map((hit) => hit.secret), reason };
}

/** An email shown as j***@example.com. */
export function maskEmail(email: string): string {
  const at = email.indexOf('@');
  return at < 1 ? '***' : `${email[0]}***${email.slice(at)}`;
}

function maskLeaf(key: string, value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  const text = String(value);
  const name = normaliseFieldName(key);
  if (typeof value === 'string' && PASSWORD_HASH.test(text)) return `${text.slice(0, 7)}…(hash cut)`;
  if (PASSWORD_KEY.test(name) || SECRET_KEY.test(name)) return maskSecret(text);
  if (typeof value === 'string' && EMAIL.test(text)) return maskEmail(text);
  if (PERSONAL.some(([field]) => field.test(name)) || CONTACT.test(name)) return text.length <= 2 ? '**' : `***${text.slice(-2)}`;
  if (NAME.test(name)) return text ? `${text[0]}***` : text;
  return typeof value === 'string' && text.length > 40 ? `${text.slice(0, 40)}…` : value;
}

function maskTree(value: unknown, depth: number): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value))
    return value
      .slice(0, 2)
      .map((item) => maskTree(item, depth + 1))
      .concat(value.length > 2 ? [`… ${value.length - 2} more`] : []);
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .slice(0, 25)
      .map(([key, child]) => [key, typeof child === 'object' ? maskTree(child, depth + 1) : maskLeaf(key, child)]),
  );
}

/** The answer with structure kept, at most two items per array, every private value masked; at most `limit` characters. */
export function maskedJsonExcerpt(json: unknown, secretValues: readonly string[] = [], limit = 800): string {
  const text = maskSecrets(maskAll(JSON.stringify(maskTree(json, 0), null, 1).replace(/\n\s*/g, ' '), secretValues));
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

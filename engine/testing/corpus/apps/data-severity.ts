// Severity from the data: Supabase apps whose readable tables and functions are rated by what they return, not by
// their column names. Each vulnerable app exposes people's contact data or live credentials; its clean twin is the
// same app done right, whose readable tables hold catalogue content or columns named like private data whose values
// are not, and must stay below medium. Modelled on the booking and client-portal apps Lovable and Bolt generate:
// a `services` catalogue read by the landing page, `bookings` written by the booking form, and SECURITY DEFINER
// functions such as get_booking(p_id uuid) behind the confirmation page.
import { anonKey, supabaseBundle, viteApp } from '../shapes';
import type { CorpusApp } from '../types';

const SERVICES = [
  { id: 1, name: 'Signature Haircut', description: 'Wash, cut and blow-dry', price: 45, duration_minutes: 45, is_active: true },
  { id: 2, name: 'Balayage', description: 'Hand-painted highlights', price: 160, duration_minutes: 150, is_active: true },
];
const OPENING_HOURS = [
  { id: 1, weekday: 'Monday', opens_at: '09:00', closes_at: '18:00' },
  { id: 2, weekday: 'Saturday', opens_at: '10:00', closes_at: '16:00' },
];
/** The salon's branches, shown on the contact page: a business's phone and address, public on purpose. */
const LOCATIONS = [{ id: 1, name: 'Glow Studio Mitte', phone: '+49 30 1234567', street_address: 'Torstraße 12', city: 'Berlin', email: 'mitte@glowstudio.example' }];
const BOOKINGS = [
  { id: '7d3c2b1a-5e4f-4a6b-8c7d-9e0f1a2b3c4d', service_id: 1, customer_name: 'Maria Lopez', customer_phone: '+1 415 555 0134', customer_email: 'maria.lopez@gmail.example', starts_at: '2025-06-02T10:00:00Z', status: 'confirmed' },
  { id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', service_id: 2, customer_name: 'Tom Becker', customer_phone: '+49 151 23456789', customer_email: 'tom.becker@web.example', starts_at: '2025-06-02T13:00:00Z', status: 'pending' },
];
const SALON_QUERIES = `async function book(e){return Ve.from("bookings").insert(e)}`;

/** Device registrations as an app keeps them for push and "sign out everywhere". */
const DEVICES_LEAKING = [
  { id: 1, user_id: '3c9d1a5f-0e7b-4b2a-9c4e-6f1d8a2b7c3e', ip_address: '198.51.100.23', token: 'b7f3c9a1e5d24f6a8c0e2b4d6f8a1c3e5b7d9f2a4c6e', platform: 'ios', created_at: '2025-04-11T08:12:00Z' },
  { id: 2, user_id: '8e2a4c6f-1b3d-4e5f-a7c9-0d2f4b6e8a1c', ip_address: '203.0.113.77', token: 'e1c3a5f7b9d2e4f6a8c0b2d4e6f8a0c2e4b6d8f1a3c5', platform: 'android', created_at: '2025-04-12T09:40:00Z' },
];
/** The same table done right: `ip_address` holds an anonymised bucket id, `token` the name of the push topic. */
const DEVICES_CLEAN = [
  { id: 1, ip_address: '6f1e2d3c-0b9a-4877-a665-5f4e3d2c1b0a', token: 'news', email: 'n/a', platform: 'ios', created_at: '2025-04-11T08:12:00Z' },
  { id: 2, ip_address: '0a9b8c7d-6e5f-4a3b-9c1d-2e3f4a5b6c7d', token: 'offers', email: 'n/a', platform: 'android', created_at: '2025-04-12T09:40:00Z' },
];

const APPOINTMENT_ID = '5b0c9a1e-3f2d-4c8b-9a7e-1d2c3b4a5f60';
/** The public slot grid: which times are taken, nothing about who took them. */
const APPOINTMENTS = [
  { id: APPOINTMENT_ID, starts_at: '2025-06-03T09:00:00Z', ends_at: '2025-06-03T09:45:00Z', status: 'booked' },
  { id: '2c4e6a8b-0d1f-4a3c-8e5b-7d9f1a3c5e7b', starts_at: '2025-06-03T10:00:00Z', ends_at: '2025-06-03T10:45:00Z', status: 'free' },
];
const FULL_BOOKING = { id: APPOINTMENT_ID, patient_name: 'Aisha Khan', phone: '+44 7700 900123', email: 'aisha.khan@mail.example', reason: 'Follow-up', starts_at: '2025-06-03T09:00:00Z' };
const clinicBundle = (url: string, key: string) =>
  supabaseBundle(url, key, ['appointments'], `async function confirmation(e){const{data:t,error:n}=await Ve.rpc("get_booking",{p_id:e});if(n)throw n;return t}`);

/** A marketplace's pricing page reads `plans`; vendors' payout details and saved cards sit beside it. */
const PLANS = [
  { id: 1, name: 'Starter', price_cents: 0, currency: 'EUR', stripe_price_id: 'price_1OqYz2LkdIwHu7ixStarter', features: 'One shop, 20 products' },
  { id: 2, name: 'Pro', price_cents: 1900, currency: 'EUR', stripe_price_id: 'price_1OqYz2LkdIwHu7ixPro0000', features: 'Unlimited products' },
];
const VENDORS = [
  { id: 'a4c6e8f0-2b4d-4f6a-8c0e-2a4c6e8f0b1d', shop_name: 'Kiln & Clay', payout_account: 'DE89 3704 0044 0532 0130 00', created_at: '2025-03-02T10:00:00Z' },
];
const PAYMENT_METHODS = [{ id: 11, vendor_id: 'a4c6e8f0-2b4d-4f6a-8c0e-2a4c6e8f0b1d', number: '4242 4242 4242 4242', exp: '04/28', brand: 'visa' }];
const marketBundle = (url: string, key: string) => supabaseBundle(url, key, ['plans', 'vendors', 'payment_methods']);

const VULNERABLE: CorpusApp[] = [
  {
    id: 'vite-supabase-bookings-readable',
    shape: 'vite-supabase',
    title: "Lovable-style salon booking app whose bookings table has no RLS: every customer's name, phone and email can be read",
    supabase: { tables: { services: SERVICES, opening_hours: OPENING_HOURS, locations: LOCATIONS, bookings: BOOKINGS } },
    expect: [{ checkId: 'supabase-table-readable', path: '/rest/v1/bookings', minSeverity: 'high' }],
    routes: (ctx) => viteApp('Glow Studio', supabaseBundle(ctx.supabaseUrl!, anonKey('glowstudio', 41), ['services', 'opening_hours', 'locations', 'bookings'], SALON_QUERIES)),
  },
  {
    id: 'vite-supabase-device-tokens-readable',
    shape: 'vite-supabase',
    title: 'Bolt-style app whose devices table is readable with the anon key: IP addresses and live push tokens of every user',
    supabase: { tables: { devices: DEVICES_LEAKING } },
    expect: [{ checkId: 'supabase-table-readable', path: '/rest/v1/devices', minSeverity: 'critical' }],
    routes: (ctx) => viteApp('Pulse', supabaseBundle(ctx.supabaseUrl!, anonKey('pulse', 42), ['devices'])),
  },
  {
    id: 'vite-supabase-rpc-booking-by-id',
    shape: 'vite-supabase',
    title: 'Clinic booking app whose SECURITY DEFINER get_booking(p_id) returns any patient\'s booking for an id read from the public slot grid',
    supabase: {
      tables: { appointments: APPOINTMENTS },
      functions: { get_booking: { params: ['p_id'], returns: (args: Record<string, string>) => (args.p_id === APPOINTMENT_ID ? [FULL_BOOKING] : []) } },
    },
    expect: [{ checkId: 'supabase-rpc-exposed', path: '/rpc/get_booking', minSeverity: 'high' }],
    routes: (ctx) => viteApp('CarePoint', clinicBundle(ctx.supabaseUrl!, anonKey('carepoint', 43))),
  },
  {
    id: 'vite-supabase-payment-data-readable',
    shape: 'vite-supabase',
    title: "Marketplace whose vendors and payment_methods tables have no RLS: vendors' IBANs and saved card numbers, under column names no list knows",
    supabase: { tables: { plans: PLANS, vendors: VENDORS, payment_methods: PAYMENT_METHODS } },
    expect: [
      { checkId: 'supabase-table-readable', path: '/rest/v1/vendors', minSeverity: 'high' },
      { checkId: 'supabase-table-readable', path: '/rest/v1/payment_methods', minSeverity: 'critical' },
    ],
    routes: (ctx) => viteApp('Makers Market', marketBundle(ctx.supabaseUrl!, anonKey('makers', 47))),
  },
];

const CONTROLS: CorpusApp[] = [
  {
    id: 'vite-supabase-clean-services-catalogue',
    shape: 'vite-supabase',
    title: "clean control: the same salon with RLS on bookings; only the services catalogue, opening hours and the branches' contact details are public",
    control: true,
    supabase: { tables: { services: SERVICES, opening_hours: OPENING_HOURS, locations: LOCATIONS, bookings: { rows: BOOKINGS, rls: true } } },
    expect: [],
    routes: (ctx) => viteApp('Glow Studio', supabaseBundle(ctx.supabaseUrl!, anonKey('glowstudio', 44), ['services', 'opening_hours', 'locations', 'bookings'], SALON_QUERIES)),
  },
  {
    id: 'vite-supabase-clean-misnamed-columns',
    shape: 'vite-supabase',
    title: 'clean control: a readable devices table whose ip_address holds anonymised ids, token a topic name and email "n/a"',
    control: true,
    supabase: { tables: { devices: DEVICES_CLEAN } },
    expect: [],
    routes: (ctx) => viteApp('Pulse', supabaseBundle(ctx.supabaseUrl!, anonKey('pulse', 45), ['devices'])),
  },
  {
    id: 'vite-supabase-clean-rpc-booking',
    shape: 'vite-supabase',
    title: "clean control: the clinic's get_booking(p_id) returns only the slot (time and status), never the patient",
    control: true,
    supabase: {
      tables: { appointments: APPOINTMENTS },
      functions: { get_booking: { params: ['p_id'], returns: (args: Record<string, string>) => APPOINTMENTS.filter((a) => a.id === args.p_id) } },
    },
    expect: [],
    routes: (ctx) => viteApp('CarePoint', clinicBundle(ctx.supabaseUrl!, anonKey('carepoint', 46))),
  },
  {
    id: 'vite-supabase-clean-pricing-plans',
    shape: 'vite-supabase',
    title: 'clean control: the same marketplace with RLS on vendors and payment_methods; only the pricing plans are public',
    control: true,
    supabase: { tables: { plans: PLANS, vendors: { rows: VENDORS, rls: true }, payment_methods: { rows: PAYMENT_METHODS, rls: true } } },
    expect: [],
    routes: (ctx) => viteApp('Makers Market', marketBundle(ctx.supabaseUrl!, anonKey('makers', 48))),
  },
];

export const APPS: CorpusApp[] = [...VULNERABLE, ...CONTROLS];

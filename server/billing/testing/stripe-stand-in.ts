import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// The Stripe stand-in: a local HTTP server that speaks the part of Stripe's API the Stripe provider uses, for tests
// only. Like Stripe it takes form-encoded bodies (`items[0][price]=…`) with a Bearer secret key, answers Stripe's
// JSON objects (subscriptions with their items' periods, as API versions since 2025 place them; invoices with a
// hosted page; subscription schedules) and Stripe's error envelope `{error: {type, code, message, param}}`. It
// keeps its objects in memory; tests move a subscription's period with `endPeriod` and `pay`.

type Json = Record<string, unknown>;

export interface StandInPrice {
  id: string;
  product: { id: string; name: string; description?: string | null; active?: boolean };
  unit_amount: number | null;
  currency?: string;
  interval?: 'month' | 'year' | null;
  active?: boolean;
}

export interface StandInRequest {
  method: string;
  path: string;
  body: Json;
}

interface Schedule {
  id: string;
  subscription: string;
  status: 'active' | 'released';
  end_behavior: string;
  phases: { start_date: number; end_date: number | null; items: { price: string; quantity: number }[] }[];
}

interface Sub {
  id: string;
  customer: string;
  status: string;
  priceId: string;
  itemId: string;
  start: number;
  end: number;
  created: number;
  cancel_at_period_end: boolean;
  schedule: string | null;
  latest_invoice: string;
  metadata: Json;
}

/** A form value that must be text (anything else reads as empty, like a missing parameter). */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const DAY = 86_400;

/** Form body or query (`a[b][0][c]=v`) as nested objects and arrays, as Stripe reads them. */
export function parseForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Json = root;
    path.forEach((segment, i) => {
      if (i === path.length - 1) node[segment] = value;
      else node = (node[segment] ??= {}) as Json;
    });
  }
  return arrays(root) as Json;
}

/** Objects whose keys are 0..n-1 become arrays. */
function arrays(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Json).map(([key, child]) => [key, arrays(child)] as const);
  if (entries.length && entries.every(([key], i) => key === String(i))) return entries.map(([, child]) => child);
  return Object.fromEntries(entries);
}

class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

const missing = (kind: string, id: string, param?: string) =>
  new StripeError(kind === 'route' ? 404 : 400, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', param);

export class StripeStandIn {
  readonly requests: StandInRequest[] = [];
  readonly customers = new Map<string, Json>();
  readonly subscriptions = new Map<string, Sub>();
  readonly schedules = new Map<string, Schedule>();
  readonly invoices = new Map<string, Json>();
  private prices: StandInPrice[] = [];
  private server: http.Server | undefined;
  origin = '';

  constructor(readonly secretKey: string) {}

  setPrices(prices: StandInPrice[]): void {
    this.prices = prices;
  }

  async start(): Promise<string> {
    this.server = http.createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.origin;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The subscription as Stripe's API answers it (what its webhooks carry as `data.object`). */
  subscription(id: string): Json {
    const sub = this.subscriptions.get(id);
    if (!sub) throw missing('subscription', id);
    return {
      id: sub.id,
      object: 'subscription',
      customer: sub.customer,
      status: sub.status,
      cancel_at_period_end: sub.cancel_at_period_end,
      created: sub.created,
      start_date: sub.created,
      schedule: sub.schedule,
      latest_invoice: sub.latest_invoice,
      metadata: sub.metadata,
      items: {
        object: 'list',
        data: [{ id: sub.itemId, object: 'subscription_item', price: this.price(sub.priceId), quantity: 1, current_period_start: sub.start, current_period_end: sub.end }],
        has_more: false,
      },
    };
  }

  /** The customer pays the first invoice on its hosted page: the subscription becomes active. */
  pay(id: string): Json {
    const sub = this.subscriptions.get(id)!;
    sub.status = 'active';
    this.invoices.get(sub.latest_invoice)!.status = 'paid';
    return this.subscription(id);
  }

  /** The period ends at Stripe: a cancelled subscription ends, a schedule's next phase applies, or it renews. */
  endPeriod(id: string): Json {
    const sub = this.subscriptions.get(id)!;
    if (sub.cancel_at_period_end) {
      sub.status = 'canceled';
      return this.subscription(id);
    }
    const schedule = sub.schedule ? this.schedules.get(sub.schedule) : undefined;
    const next = schedule?.phases[1];
    if (schedule && next) {
      sub.priceId = next.items[0]!.price;
      // end_behavior 'release': after its last phase the schedule lets go of the subscription.
      schedule.status = 'released';
      sub.schedule = null;
    }
    sub.start = sub.end;
    sub.end = sub.start + 30 * DAY;
    return this.subscription(id);
  }

  private price(id: string): Json {
    const price = this.prices.find((candidate) => candidate.id === id);
    if (!price) throw missing('price', id, 'items[0][price]');
    return {
      id: price.id,
      object: 'price',
      active: price.active ?? true,
      currency: price.currency ?? 'usd',
      unit_amount: price.unit_amount,
      recurring: price.interval ? { interval: price.interval, interval_count: 1 } : null,
      type: price.interval ? 'recurring' : 'one_time',
      product: price.product.id,
    };
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', this.origin);
    const body = request.method === 'GET' || request.method === 'DELETE' ? parseForm(url.search.slice(1)) : parseForm(Buffer.concat(chunks).toString());
    this.requests.push({ method: request.method ?? '', path: url.pathname, body });
    const send = (status: number, json: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      response.end(JSON.stringify(json));
    };
    try {
      if (request.headers.authorization !== `Bearer ${this.secretKey}`) {
        throw new StripeError(401, 'invalid_request_error', `Invalid API Key provided: ${String(request.headers.authorization ?? '').slice(7, 15)}****`);
      }
      if (!String(request.headers['content-type'] ?? 'application/x-www-form-urlencoded').startsWith('application/x-www-form-urlencoded')) {
        throw new StripeError(400, 'invalid_request_error', 'Bodies must be form-encoded');
      }
      send(200, this.route(request.method ?? 'GET', url.pathname, body));
    } catch (error) {
      if (!(error instanceof StripeError)) return send(500, { error: { type: 'api_error', message: (error as Error).message } });
      send(error.status, { error: { type: error.type, code: error.code, message: error.message, param: error.param } });
    }
  }

  private route(method: string, path: string, body: Json): unknown {
    const [, version, kind, id, action] = path.split('/');
    if (version !== 'v1') throw missing('route', path);
    const key = `${method} ${kind}${id ? '/:id' : ''}${action ? `/${action}` : ''}`;
    switch (key) {
      case 'GET prices':
        return this.listPrices(body);
      case 'POST customers':
        return this.createCustomer(body);
      case 'POST subscriptions':
        return this.createSubscription(body);
      case 'GET subscriptions/:id':
        return this.subscription(id!);
      case 'POST subscriptions/:id':
        return this.updateSubscription(id!, body);
      case 'DELETE subscriptions/:id':
        return this.cancelSubscription(id!);
      case 'POST subscription_schedules':
        return this.createSchedule(body);
      case 'GET subscription_schedules/:id':
        return this.schedule(id!);
      case 'POST subscription_schedules/:id':
        return this.updateSchedule(id!, body);
      case 'POST subscription_schedules/:id/release':
        return this.releaseSchedule(id!);
      default:
        throw new StripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
    }
  }

  private listPrices(query: Json): Json {
    const expand = (query.expand as string[] | undefined) ?? [];
    const limit = Number(query.limit ?? 10);
    const data = this.prices
      .filter((price) => query.active !== 'true' || (price.active ?? true))
      .slice(0, limit)
      .map((price) => {
        const json = this.price(price.id);
        if (expand.includes('data.product'))
          json.product = {
            id: price.product.id,
            object: 'product',
            name: price.product.name,
            description: price.product.description ?? null,
            active: price.product.active ?? true,
          };
        return json;
      });
    return { object: 'list', url: '/v1/prices', has_more: false, data };
  }

  private createCustomer(body: Json): Json {
    const customer = { id: newId('cus'), object: 'customer', metadata: body.metadata ?? {}, email: body.email ?? null };
    this.customers.set(customer.id, customer);
    return customer;
  }

  private createSubscription(body: Json): Json {
    const customer = text(body.customer);
    if (!this.customers.has(customer)) throw missing('customer', customer, 'customer');
    const items = (body.items as Json[] | undefined) ?? [];
    const priceId = text(items[0]?.price);
    const price = this.price(priceId);
    if (!price.recurring)
      throw new StripeError(
        400,
        'invalid_request_error',
        'The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.',
        undefined,
        'items[0][price]',
      );
    const now = Math.floor(Date.now() / 1000);
    const invoice = { id: newId('in'), object: 'invoice', status: 'open', hosted_invoice_url: `${this.origin}/i/${newId('acct')}/${newId('test')}`, amount_due: price.unit_amount };
    this.invoices.set(invoice.id, invoice);
    const sub: Sub = {
      id: newId('sub'),
      customer,
      // payment_behavior=default_incomplete: incomplete until the first invoice is paid.
      status: body.payment_behavior === 'default_incomplete' ? 'incomplete' : 'active',
      priceId,
      itemId: newId('si'),
      start: now,
      end: now + 30 * DAY,
      created: now,
      cancel_at_period_end: false,
      schedule: null,
      latest_invoice: invoice.id,
      metadata: (body.metadata as Json | undefined) ?? {},
    };
    this.subscriptions.set(sub.id, sub);
    const json = this.subscription(sub.id);
    if (((body.expand as string[] | undefined) ?? []).includes('latest_invoice')) json.latest_invoice = invoice;
    return json;
  }

  private updateSubscription(id: string, body: Json): Json {
    const sub = this.subscriptions.get(id);
    if (!sub) throw missing('subscription', id);
    if (sub.schedule && body.cancel_at_period_end !== undefined) {
      throw new StripeError(
        400,
        'invalid_request_error',
        `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior directly is not allowed.`,
      );
    }
    const item = (body.items as Json[] | undefined)?.[0];
    if (item) {
      if (item.id !== sub.itemId) throw missing('subscription_item', String(item.id), 'items[0][id]');
      this.price(String(item.price));
      sub.priceId = String(item.price);
    }
    if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
    return this.subscription(id);
  }

  private cancelSubscription(id: string): Json {
    const sub = this.subscriptions.get(id);
    if (!sub) throw missing('subscription', id);
    sub.status = 'canceled';
    return this.subscription(id);
  }

  private schedule(id: string): Json {
    const schedule = this.schedules.get(id);
    if (!schedule) throw missing('subscription_schedule', id);
    const now = Math.floor(Date.now() / 1000);
    const current = schedule.phases.find((phase) => phase.start_date <= now && (phase.end_date === null || now < phase.end_date)) ?? null;
    return {
      id: schedule.id,
      object: 'subscription_schedule',
      subscription: schedule.subscription,
      status: schedule.status,
      end_behavior: schedule.end_behavior,
      current_phase: current ? { start_date: current.start_date, end_date: current.end_date } : null,
      phases: schedule.phases.map((phase) => ({ ...phase, items: phase.items.map((item) => ({ ...item, price: item.price })) })),
    };
  }

  private createSchedule(body: Json): Json {
    const subId = text(body.from_subscription);
    const sub = this.subscriptions.get(subId);
    if (!sub) throw missing('subscription', subId, 'from_subscription');
    if (sub.schedule)
      throw new StripeError(
        400,
        'invalid_request_error',
        `You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`,
        undefined,
        'from_subscription',
      );
    if (body.phases) throw new StripeError(400, 'invalid_request_error', 'You cannot set `phases` if `from_subscription` is set.', undefined, 'phases');
    const schedule: Schedule = {
      id: newId('sub_sched'),
      subscription: subId,
      status: 'active',
      end_behavior: 'release',
      phases: [{ start_date: sub.start, end_date: sub.end, items: [{ price: sub.priceId, quantity: 1 }] }],
    };
    this.schedules.set(schedule.id, schedule);
    sub.schedule = schedule.id;
    return this.schedule(schedule.id);
  }

  private updateSchedule(id: string, body: Json): Json {
    const schedule = this.schedules.get(id);
    if (!schedule || schedule.status !== 'active') throw missing('subscription_schedule', id);
    const phases = (body.phases as Json[] | undefined) ?? [];
    schedule.phases = phases.map((phase, i) => {
      const items = ((phase.items as Json[] | undefined) ?? []).map((item) => ({ price: String(this.price(String(item.price)).id), quantity: Number(item.quantity ?? 1) }));
      const start = phase.start_date ? Number(phase.start_date) : (schedule.phases[i - 1]?.end_date ?? Math.floor(Date.now() / 1000));
      const end = phase.end_date ? Number(phase.end_date) : null;
      return { start_date: start, end_date: end, items };
    });
    if (body.end_behavior) schedule.end_behavior = text(body.end_behavior);
    return this.schedule(id);
  }

  private releaseSchedule(id: string): Json {
    const schedule = this.schedules.get(id);
    if (!schedule || schedule.status !== 'active') throw missing('subscription_schedule', id);
    schedule.status = 'released';
    const sub = this.subscriptions.get(schedule.subscription);
    if (sub) sub.schedule = null;
    return this.schedule(id);
  }
}

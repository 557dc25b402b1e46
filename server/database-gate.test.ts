import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { databaseGate } from './database-gate';
import type { Availability } from './db';

const DETAIL = 'The embedded database stopped unexpectedly and is being restarted (attempt 2).';
const DOWN: Availability = { state: 'down', detail: DETAIL, since: 0, attempts: 2 };

async function gatedApp(availability: Availability, afterCheck: Availability = availability) {
  let current = availability;
  let checks = 0;
  const app = Fastify();
  databaseGate(app, {
    availability: () => current,
    check: async () => {
      checks++;
      current = afterCheck;
      return current;
    },
  });
  app.get('/health', async () => ({ status: 'checked by its own route' }));
  app.get('/app-config', async () => ({ mode: 'local' }));
  app.get('/projects', async () => [{ id: 'p1' }]);
  app.get('/fails', async () => {
    throw new Error('Connection terminated unexpectedly');
  });
  app.get('/bad', async (_request, reply) => reply.code(400).send({ detail: 'url is required' }));
  // The shape @fastify/static gives the files of the built renderer.
  app.get('/assets/app.js', { config: { file: 'assets/app.js' } } as never, async () => 'console.log(1)');
  app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({ detail: 'Not Found' }));
  await app.ready();
  return { app, checks: () => checks };
}

describe('databaseGate', () => {
  it('answers 503 with the reason and Retry-After on routes that need the database while it is away', async () => {
    const { app } = await gatedApp(DOWN);
    const response = await app.inject({ method: 'GET', url: '/projects' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.json()).toEqual({ detail: DETAIL });
  });

  it('lets through what needs no database: the health check, configuration, files, pages', async () => {
    const { app } = await gatedApp(DOWN);
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/app-config' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/dashboard/projects' })).statusCode).toBe(404);
  });

  it('turns a 5xx into a 503 with the reason when a check finds the database gone', async () => {
    const { app, checks } = await gatedApp({ state: 'up' }, DOWN);
    const response = await app.inject({ method: 'GET', url: '/fails' });
    expect(checks()).toBe(1);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ detail: DETAIL });
  });

  it('leaves a 5xx alone when the database answers, and never checks on other answers', async () => {
    const { app, checks } = await gatedApp({ state: 'up' });
    expect((await app.inject({ method: 'GET', url: '/fails' })).statusCode).toBe(500);
    expect(checks()).toBe(1);
    expect((await app.inject({ method: 'GET', url: '/bad' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/projects' })).json()).toEqual([{ id: 'p1' }]);
    expect(checks()).toBe(1);
  });
});

import { channel } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** One route of the app: `GET /project/:id`. */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** A file of the built renderer served by @fastify/static (one route per file). */
  file: boolean;
}

export const routeKey = (route: Pick<RegisteredRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;

/**
 * Records every route that Fastify apps created from now on in this process register, through Fastify's own
 * `onRoute` hook (attached when an app is created, announced on the `fastify.initialization` diagnostics channel),
 * so tests can require a table entry for each route of the real app. HEAD routes that mirror a GET are left out.
 */
export function recordRoutes(): { routes: () => RegisteredRoute[]; stop(): void } {
  const seen = new Map<string, RegisteredRoute>();
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (options: RouteOptions) => {
      const file = (options.config as { file?: unknown } | undefined)?.file !== undefined;
      for (const method of [options.method].flat()) {
        const route = { method, url: options.url, file };
        seen.set(routeKey(route), route);
      }
    });
  };
  const init = channel('fastify.initialization');
  init.subscribe(onInit);
  return {
    routes: () => [...seen.values()].filter((route) => route.method !== 'HEAD' || !seen.has(routeKey({ method: 'GET', url: route.url }))),
    stop: () => init.unsubscribe(onInit),
  };
}

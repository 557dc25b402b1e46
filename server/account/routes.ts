import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import { ACCOUNT_ERRORS, deleteAccountSchema, preferencesPatchSchema, preferencesSchema } from '../../common/preferences';
import { userOf } from '../auth/guard';
import { deleteAccount, type CloseBilling } from './deletion';
import { exportFileName, exportStream } from './export';
import type { PreferencesStore } from './preferences';

export interface AccountRouteDeps {
  pool: pg.Pool;
  preferences: PreferencesStore;
  /** Cancels the account's active subscriptions with the provider; without it they are marked canceled. */
  closeBilling?: CloseBilling;
  /** After a deletion: the deleted API keys leave every instance's cache (ApiKeyAuth.revoked). */
  revokeApiKey(keyHash: string): Promise<void>;
  /** After a deletion: cached answers about the account (its plan) are dropped. */
  forgetUser?(userId: string): void;
  /** Before a deletion: counts kept in memory (the API's daily usage) are written and forgotten, so none lands after. */
  settleUser?(userId: string): Promise<void>;
}

const detail = z.object({ detail: z.string() });

/** Preferences (spec section 3), the data export and the deletion of the signed-in account. */
export function accountRoutes(deps: AccountRouteDeps) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.get('/preferences', { schema: { response: { 200: preferencesSchema } } }, async (request) => deps.preferences.get(userOf(request).id));

    app.patch('/preferences', { schema: { body: preferencesPatchSchema, response: { 200: preferencesSchema } } }, async (request) =>
      deps.preferences.patch(userOf(request).id, request.body),
    );

    app.get('/account/export', async (request, reply) => {
      const user = userOf(request);
      const preferences = await deps.preferences.get(user.id);
      const stream = exportStream(deps.pool, user, preferences);
      stream.on('error', (error) => request.log.warn({ err: error }, 'account export stopped'));
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName()}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    });

    app.delete('/account', { schema: { body: deleteAccountSchema, response: { 204: z.null(), 400: detail, 409: detail } } }, async (request, reply) => {
      const user = userOf(request);
      if (!user.email || request.body.email.toLowerCase() !== user.email.trim().toLowerCase()) {
        return reply.code(400).send({ detail: ACCOUNT_ERRORS.confirmationMismatch });
      }
      await deps.settleUser?.(user.id);
      const result = await deleteAccount(deps.pool, user.id, deps.closeBilling);
      deps.forgetUser?.(user.id);
      for (const hash of result.apiKeyHashes) await deps.revokeApiKey(hash).catch((error: Error) => request.log.warn({ err: error }, 'could not announce a revoked API key'));
      request.log.info({ tables: Object.keys(result.deleted).length }, 'account deleted');
      return reply.code(204).send(null);
    });
  };
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageQuerySchema } from '../../common/pagination';
import {
  invitationBodySchema,
  invitationTokenBodySchema,
  lastWorkspaceSchema,
  transferBodySchema,
  WORKSPACE_PAGE_SIZES,
  WORKSPACE_PATHS,
  workspaceBodySchema,
} from '../../common/workspaces';
import { userOf } from '../auth/guard';
import { setNextPage } from '../pagination';
import type { Invitations } from './invitations';
import type { WorkspaceService } from './service';

export interface WorkspaceRouteDeps {
  workspaces: WorkspaceService;
  invitations: Invitations;
}

const idParams = z.object({ id: z.string() });
const memberParams = z.object({ id: z.string(), userId: z.string() });
const invitationParams = z.object({ id: z.string(), invitationId: z.string() });

/**
 * The workspace API (common/workspaces.ts): workspaces, members, invitations, leaving and transfer. Each route
 * acts on the workspace in its path, checked against the caller's memberships (not the X-Vibeeval-Workspace
 * header, which chooses where the other product routes act).
 */
export function workspaceRoutes({ workspaces, invitations }: WorkspaceRouteDeps) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.get(WORKSPACE_PATHS.list, { schema: { querystring: pageQuerySchema(WORKSPACE_PAGE_SIZES.workspaces) } }, async (request, reply) => {
      const page = await workspaces.list(userOf(request), request.query);
      setNextPage(request, reply, page.next);
      return page.items;
    });

    app.post(WORKSPACE_PATHS.list, { schema: { body: workspaceBodySchema }, config: { creationLimit: 'workspace' } }, async (request, reply) =>
      reply.code(201).send(await workspaces.create(userOf(request), request.body.name)),
    );

    app.get(WORKSPACE_PATHS.last, { schema: { response: { 200: lastWorkspaceSchema } } }, async (request) => ({ workspace_id: await workspaces.lastUsed(userOf(request)) }));

    app.put(WORKSPACE_PATHS.last, { schema: { body: lastWorkspaceSchema } }, async (request, reply) => {
      await workspaces.useLast(userOf(request), request.body.workspace_id);
      return reply.code(204).send();
    });

    app.get(WORKSPACE_PATHS.one, { schema: { params: idParams } }, async (request) => workspaces.get(userOf(request), request.params.id));

    app.patch(WORKSPACE_PATHS.one, { schema: { params: idParams, body: workspaceBodySchema } }, async (request) =>
      workspaces.rename(userOf(request), request.params.id, request.body.name),
    );

    app.delete(WORKSPACE_PATHS.one, { schema: { params: idParams } }, async (request, reply) => {
      await workspaces.remove(userOf(request), request.params.id);
      return reply.code(204).send();
    });

    app.get(WORKSPACE_PATHS.members, { schema: { params: idParams, querystring: pageQuerySchema(WORKSPACE_PAGE_SIZES.members) } }, async (request, reply) => {
      const page = await workspaces.members(userOf(request), request.params.id, request.query);
      setNextPage(request, reply, page.next);
      return page.items;
    });

    app.delete(WORKSPACE_PATHS.member, { schema: { params: memberParams } }, async (request, reply) => {
      await workspaces.removeMember(userOf(request), request.params.id, request.params.userId);
      return reply.code(204).send();
    });

    app.post(WORKSPACE_PATHS.leave, { schema: { params: idParams } }, async (request, reply) => {
      await workspaces.leave(userOf(request), request.params.id);
      return reply.code(204).send();
    });

    app.post(WORKSPACE_PATHS.transfer, { schema: { params: idParams, body: transferBodySchema } }, async (request) =>
      workspaces.transfer(userOf(request), request.params.id, request.body.user_id),
    );

    invitationRoutes(app, invitations);
  };
}

function invitationRoutes(scope: FastifyInstance, invitations: Invitations) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get(WORKSPACE_PATHS.invitations, { schema: { params: idParams, querystring: pageQuerySchema(WORKSPACE_PAGE_SIZES.invitations) } }, async (request, reply) => {
    const page = await invitations.list(userOf(request), request.params.id, request.query);
    setNextPage(request, reply, page.next);
    return page.items;
  });

  app.post(WORKSPACE_PATHS.invitations, { schema: { params: idParams, body: invitationBodySchema }, config: { creationLimit: 'invitation' } }, async (request, reply) =>
    reply.code(201).send(await invitations.create(userOf(request), request.params.id, request.body.email)),
  );

  app.delete(WORKSPACE_PATHS.invitation, { schema: { params: invitationParams } }, async (request, reply) => {
    await invitations.revoke(userOf(request), request.params.id, request.params.invitationId);
    return reply.code(204).send();
  });

  app.post(WORKSPACE_PATHS.preview, { schema: { body: invitationTokenBodySchema } }, async (request) => invitations.preview(userOf(request), request.body.token));

  app.post(WORKSPACE_PATHS.accept, { schema: { body: invitationTokenBodySchema }, config: { creationLimit: 'invitation_accept' } }, async (request) =>
    invitations.accept(userOf(request), request.body.token),
  );
}

import type { RequestUser } from '../auth/guard';
import type { RequestWorkspace } from './access';

/** Who acts, and in which workspace: records are scoped by the workspace and name the member who made them. */
export interface Actor {
  workspaceId: string;
  userId: string;
}

/**
 * An actor, or a bare user id that acts in that user's personal workspace (whose id is the user's). The bare form
 * keeps callers that do not know workspaces yet (jobs of personal records, the public API until it names one) exact.
 */
export type ActorLike = Actor | string;

export function actorOf(who: ActorLike): Actor {
  return typeof who === 'string' ? { workspaceId: who, userId: who } : who;
}

/** The acting member and workspace of a product API request (after requireUser and requireWorkspace). */
export function requestActor(request: { user: RequestUser | null; workspace: RequestWorkspace | null }): Actor {
  if (!request.user || !request.workspace) throw Object.assign(new Error('Authentication required'), { statusCode: 401 });
  return { workspaceId: request.workspace.id, userId: request.user.id };
}

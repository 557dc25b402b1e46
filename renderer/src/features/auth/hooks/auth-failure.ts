import type { ErrorToast } from '../../../api/query-client';
import { UNEXPECTED_ERROR } from '../../../ui/toaster';

/** A failure the auth server explained: its message goes under the toast's title. */
export class AuthFailure extends Error {}

/** The error toast of an auth mutation: the title with the server's explanation, or 'An unexpected error occurred.'. */
export const authFailureToast =
  (title: string) =>
  (error: unknown): ErrorToast =>
    error instanceof AuthFailure ? [title, error.message] : UNEXPECTED_ERROR;

import { BILLING_TEXTS } from '@common/billing';
import { ApiError } from '../../../api/http';
import { notify } from '../../../ui/toaster';
import { billingErrorMessage } from '../billing-view';
import { AUTH_REQUIRED_TOAST } from '../texts';

/**
 * The destructive toast of a failed plan change (spec section 8): titled 'Error', with the error's message or the
 * fallback; without a session it is 'Authentication Required'. Errors are also logged.
 */
export function toastBillingFailure(lead: string, fallback: string, error: unknown) {
  console.error(error);
  if (error instanceof ApiError && error.status === 401) {
    notify.error(...AUTH_REQUIRED_TOAST);
    return;
  }
  notify.error(BILLING_TEXTS.errorTitle, billingErrorMessage(lead, error) ?? fallback);
}

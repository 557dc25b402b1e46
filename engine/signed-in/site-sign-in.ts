// How the site itself signs a user in, read from what the scan retrieved: a JSON login API its scripts call, and a
// login form on its pages. Tried in that order for requests to the site's own origin (SessionStore.siteCredential).
import { collectTexts } from '../secrets/scan';
import type { SiteBeforeProbes } from '../types';
import { apiLoginMethod, findLoginApis } from './api-login';
import { findLoginForm, formLoginMethod, type FormLoginOptions } from './form-login';
import type { SignInMethodImpl } from './methods';

export interface SiteSignIn {
  impl: SignInMethodImpl;
  /** The URL the sign-in is sent to. */
  url: string;
  /** Whether that URL's answer holds the session (withheld from every exchange kept). */
  answerHoldsSession: boolean;
}

export type SiteSignInOptions = FormLoginOptions;

/** The site's own sign-ins, the JSON API first (one request), then the login form. */
export function siteSignIns(site: SiteBeforeProbes, options: SiteSignInOptions): SiteSignIn[] {
  const methods: SiteSignIn[] = findLoginApis(collectTexts(site), site.origin).map((api) => ({ impl: apiLoginMethod(api), url: api.url, answerHoldsSession: true }));
  const form = findLoginForm(site);
  if (form) methods.push({ impl: formLoginMethod(form, options), url: form.form.action, answerHoldsSession: true });
  return methods;
}

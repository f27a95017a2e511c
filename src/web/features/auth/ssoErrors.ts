import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { SsoError } from '../../../common/schemas/sso';

/**
 * What each way a sign-in through the institution can fail tells the person, in the page's
 * language: in English, the words of SSO_ERROR_MESSAGES (common/schemas/sso.ts).
 */
export const SSO_ERROR_TEXTS: Record<SsoError, MessageDescriptor> = {
  failed: msg`Sign-in with your institution did not work. Try again, or sign in with your password.`,
  unreachable: msg`Your institution's sign-in service could not be reached. Try again in a few minutes, or sign in with your password.`,
  domain: msg`This account cannot sign in here: its email address is not one of your institution's domains.`,
  expired: msg`That sign-in took too long or was already used. Start again.`,
  account: msg`This account cannot sign in here. Ask your institution for help.`,
  browser: msg`That sign-in was started in another browser. Start again here.`,
  signed_in: msg`This browser is signed in as someone else. Sign out first, then sign in with your institution.`,
  unlinked: msg`Staff accounts sign in with their institution only once they have linked it to their account: sign in with your password and second factor, then link it.`,
  unverified: msg`Your institution did not confirm this email address. Ask your institution for help.`,
};

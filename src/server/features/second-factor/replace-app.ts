import type { Kysely } from 'kysely';
import { writeTransaction } from '../../db/transaction-runner';
import type { Database } from '../../db/types';
import { selfActor } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { clearLimit } from '../../lib/limits';
import { seal, unseal } from '../../lib/sealed';
import type { Session } from '../../lib/sessions';
import { requireFreshFactor } from '../../lib/step-up';
import { MINUTE, now } from '../../lib/time';
import { recordSignInChange } from './factor-changes';
import * as queries from './queries';
import {
  countCodeAttempt,
  NOT_SET_UP,
  requireStaffAccount,
  type SecondFactorContext,
  WRONG_SETUP_CODE,
} from './service';
import { matchTotp, newTotpSecret, qrCodeDataUrl, totpUri } from './totp';

/**
 * Replacing the authenticator app (a new phone): the second factor proven afresh, then a new
 * secret that waits beside the old one until the new app's first code confirms it. Until then the
 * old app keeps working, so a replacement abandoned half-way locks no one out; once confirmed, the
 * old app's codes stop working. Recovery codes are not touched.
 */

/** Long enough to find the new phone and scan; a replacement left longer is started again. */
export const REPLACEMENT_LIFETIME = 15 * MINUTE;

export const NO_REPLACEMENT =
  'Start the replacement again: choose "Replace authenticator app" and scan the new code.';
export const APP_REPLACED = 'Your new authenticator app is set up. The old one no longer works.';

async function confirmedApp(db: Kysely<Database>, session: Session) {
  requireStaffAccount(session.user);
  const totp = await queries.findTotp(db, session.user.id);
  if (!totp?.confirmed_at) throw new AppError('CONFLICT', NOT_SET_UP);
  requireFreshFactor(session);
  return totp;
}

/** A new secret for the new app, to be confirmed with its first code; the old app still works. */
export async function startAppReplacement(options: {
  db: Kysely<Database>;
  context: SecondFactorContext;
  session: Session;
}) {
  const { db, context, session } = options;
  await confirmedApp(db, session);
  const secret = newTotpSecret();
  await queries.putReplacementTotp(db, session.user.id, seal(context.sealKey, secret), now());
  const uri = totpUri(context.issuer, session.user.email, secret);
  return { success: true as const, secret, otpauth_uri: uri, qr_code: qrCodeDataUrl(uri) };
}

/**
 * The new app's first code makes it the app: the old one stops working, and the change is
 * recorded and told to the owner. Wrong codes count with every other code of the account.
 */
export async function confirmAppReplacement(options: {
  db: Kysely<Database>;
  context: SecondFactorContext;
  session: Session;
  code: string;
  address: string;
}) {
  const { db, context, session, code } = options;
  const { user } = session;
  const totp = await confirmedApp(db, session);
  const at = now();
  const waiting =
    totp.replacement_secret_sealed !== null &&
    totp.replacement_started_at !== null &&
    at - Number(totp.replacement_started_at) <= REPLACEMENT_LIFETIME
      ? totp.replacement_secret_sealed
      : null;
  const secret = waiting === null ? null : unseal(context.sealKey, waiting);
  if (waiting === null || secret === null) throw new AppError('CONFLICT', NO_REPLACEMENT);
  const limitKey = await countCodeAttempt(db, user, options.address);
  const step = await matchTotp({ secret, code, at, usedStep: null });
  if (step === null) throw new AppError('BAD_REQUEST', WRONG_SETUP_CODE);
  const actor = selfActor(user, options.address);
  await writeTransaction(db, async (trx) => {
    if (!(await queries.swapInReplacementTotp(trx, user.id, { secretSealed: waiting, step, at })))
      throw new AppError('CONFLICT', NO_REPLACEMENT);
    if (actor)
      await recordSignInChange(trx, actor, {
        action: 'staff.app_replace',
        subject: { type: 'user', id: user.id },
        summary: /*i18n*/ {
          id: 'mail.sign-in-change.app-replaced',
          message: 'The authenticator app of your staff account was replaced (the old one no longer works)',
        },
        tell: [user.email],
      });
  });
  await clearLimit(db, limitKey);
  return { success: true as const, message: APP_REPLACED };
}

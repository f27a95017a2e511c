import { LIMITS } from '../limit-table';
import { AppError } from './errors';
import type { Session } from './sessions';
import { now } from './time';

/**
 * Changing how a staff account signs in (a passkey, the authenticator app, recovery codes, the
 * institution's single sign-on) needs a second factor proven this recently: a session taken
 * over without the factor cannot change the factors that keep it out.
 */
export const STEP_UP_WINDOW = LIMITS.stepUp.max;

export const STEP_UP_REQUIRED_MESSAGE =
  'Confirm it is you first: enter a code from your authenticator app or a recovery code, or use your passkey.';

/** A 403 `STEP_UP_REQUIRED` unless this session proved a second factor within the window. */
export function requireFreshFactor(session: Session, at = now()): void {
  const proven = session.factorProvenAt ?? null;
  if (proven !== null && at - proven <= STEP_UP_WINDOW) return;
  throw new AppError('STEP_UP_REQUIRED', STEP_UP_REQUIRED_MESSAGE);
}

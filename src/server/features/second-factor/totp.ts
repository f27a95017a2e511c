import { generateSecret, generateURI, verify } from 'otplib';
import { renderSVG } from 'uqr';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, a 30-second step. */
const TOTP_PERIOD_SECONDS = 30;
/** A phone's clock may be one step behind or ahead of ours; no more. */
const TOTP_DRIFT_STEPS = 1;

export function newTotpSecret(): string {
  return generateSecret();
}

/** What the app scans: the product's name and the staff member's address label the entry. */
export function totpUri(issuer: string, email: string, secret: string): string {
  return generateURI({ issuer, label: email, secret, period: TOTP_PERIOD_SECONDS });
}

/** The QR code of the enrolment URI, drawn on the server: no QR library reaches the browser. */
export function qrCodeDataUrl(text: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(renderSVG(text, { border: 2 })).toString('base64')}`;
}

/**
 * The time step a code belongs to, when it is right for `at` (within the drift window) and newer
 * than `usedStep`, the step of the last code accepted; otherwise null. A code is accepted once.
 */
export async function matchTotp(options: {
  secret: string;
  code: string;
  at: number;
  usedStep: number | null;
}): Promise<number | null> {
  if (!/^[0-9]{6}$/.test(options.code)) return null;
  const result = await verify({
    secret: options.secret,
    token: options.code,
    period: TOTP_PERIOD_SECONDS,
    epoch: Math.floor(options.at / 1000),
    epochTolerance: TOTP_PERIOD_SECONDS * TOTP_DRIFT_STEPS,
    ...(options.usedStep === null ? {} : { afterTimeStep: options.usedStep }),
  });
  // The result names the step for TOTP (the union type also covers HOTP, which has none).
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

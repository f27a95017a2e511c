import { z } from 'zod/mini';
import { CurrentUser } from './auth';

/**
 * Passkeys (WebAuthn) for staff (design section 11). The options and the browser's answers are
 * WebAuthn's own JSON forms, checked here for their outline and by the WebAuthn library for
 * everything else.
 */

const text = /* @__NO_SIDE_EFFECTS__ */ (label: string, max: number) =>
  z.string({ error: `${label} must be text` }).check(z.maxLength(max, `${label} is too long`));

/** Options for navigator.credentials.create() or .get(), as JSON. */
export const PasskeyOptions = z.object({
  success: z.literal(true),
  options: z.looseObject({ challenge: z.string() }),
});
export type PasskeyOptions = z.infer<typeof PasskeyOptions>;

const credentialOutline = {
  id: text('id', 1400),
  rawId: text('rawId', 1400),
  type: z.literal('public-key', 'type must be "public-key"'),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.optional(z.string()),
};

export const PASSKEY_NAME_MAX = 60;

export const PasskeyRegistration = z.object({
  /** What the owner calls it ("Work laptop"); "Passkey" when left out. */
  name: z.optional(text('name', PASSKEY_NAME_MAX)),
  credential: z.looseObject({
    ...credentialOutline,
    response: z.looseObject({
      clientDataJSON: text('clientDataJSON', 10_000),
      attestationObject: text('attestationObject', 50_000),
    }),
  }),
});
export type PasskeyRegistration = z.infer<typeof PasskeyRegistration>;

export const PasskeyAuthentication = z.object({
  credential: z.looseObject({
    ...credentialOutline,
    response: z.looseObject({
      clientDataJSON: text('clientDataJSON', 10_000),
      authenticatorData: text('authenticatorData', 10_000),
      signature: text('signature', 10_000),
    }),
  }),
});
export type PasskeyAuthentication = z.infer<typeof PasskeyAuthentication>;

export const PasskeySignedIn = z.object({
  success: z.literal(true),
  message: z.string(),
  /** After the account's first second factor only; shown once, as only their hashes are kept. */
  recovery_codes: z.optional(z.array(z.string())),
  user: CurrentUser,
});
export type PasskeySignedIn = z.infer<typeof PasskeySignedIn>;

/** One of the staff member's own passkeys: what they called it, when it was added and last used. */
export const PasskeySummary = z.object({
  id: z.number(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.nullable(z.string()),
});
export type PasskeySummary = z.infer<typeof PasskeySummary>;

export const PasskeyList = z.object({ success: z.literal(true), passkeys: z.array(PasskeySummary) });
export type PasskeyList = z.infer<typeof PasskeyList>;

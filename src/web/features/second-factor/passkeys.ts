import { msg } from '@lingui/core/macro';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { useSyncExternalStore } from 'react';
import type { PasskeyAuthentication, PasskeyRegistration } from '../../../common/schemas/passkeys';
import { api } from '../../api';
import { i18n } from '../../app/i18n';

/**
 * Passkeys in the browser. The WebAuthn helper library and the passkey endpoints' contract are
 * loaded only when a passkey is used, so the sign-in pages do not carry them before they can be
 * used (the contract's schemas would bring zod along).
 */
const passkeyEndpoints = () => import('../../../common/endpoints/passkeys');

/** Whether this browser can use passkeys at all (the buttons are shown only then). */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

const noSubscription = () => () => {};

/**
 * `passkeysSupported()` for a screen the server may render: the server, which cannot know the
 * browser, draws the passkey button as nearly every browser supports it, hydration draws the
 * same, and a browser without passkeys removes it right after.
 */
export function usePasskeysSupported(): boolean {
  return useSyncExternalStore(noSubscription, passkeysSupported, () => true);
}

/** The browser's own refusal (the person cancelled, or no passkey fits) rather than the server's. */
export function isBrowserRefusal(error: unknown): boolean {
  return (
    error instanceof Error && ['NotAllowedError', 'AbortError', 'InvalidStateError'].includes(error.name)
  );
}

const NOT_USED = msg`No passkey was used. Try again, or sign in another way.`;

/** What a person is told when no passkey was used (cancelled, or none fits), in the page's language. */
export function passkeyNotUsed(): string {
  return i18n._(NOT_USED);
}

/** The same in English, for the screens that have not moved to `passkeyNotUsed` yet. */
export const PASSKEY_NOT_USED = 'No passkey was used. Try again, or sign in another way.';

/** Creates a passkey on this device for the signed-in staff member and registers it, named if given. */
export async function addPasskey(name?: string) {
  const endpoints = await passkeyEndpoints();
  const { options } = await api.call(endpoints.startPasskeyRegistration);
  const { startRegistration } = await import('@simplewebauthn/browser');
  const credential = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return api.call(endpoints.addPasskey, {
    body: {
      // The same JSON: the library declares it as interfaces, the schema as open objects.
      credential: credential as PasskeyRegistration['credential'],
      ...(name ? { name } : {}),
    },
  });
}

/** Signs in with a passkey: alone, or as the second factor of a password sign-in. */
export async function signInWithPasskey() {
  const endpoints = await passkeyEndpoints();
  const { options } = await api.call(endpoints.startPasskeySignIn);
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const credential = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return api.call(endpoints.signInWithPasskey, {
    body: { credential: credential as PasskeyAuthentication['credential'] },
  });
}

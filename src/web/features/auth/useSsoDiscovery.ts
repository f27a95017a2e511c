import { useEffect, useState } from 'react';
import type { SsoDiscoverResponse } from '../../../common/schemas/sso';
import { discoverSso } from './ssoApi';

/** Typing pauses this long before the address is looked up: one call per address, not per key. */
const DISCOVERY_DELAY_MS = 400;
const LOOKS_LIKE_AN_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export type SsoOffer = NonNullable<SsoDiscoverResponse['sso']>;

/**
 * The institution's sign-in for the address being typed, once typing pauses; null while there is
 * none (or the lookup fails: the password form still works).
 */
export function useSsoDiscovery(email: string): SsoOffer | null {
  const [offer, setOffer] = useState<{ email: string; sso: SsoOffer } | null>(null);
  const address = email.trim().toLowerCase();
  useEffect(() => {
    if (!LOOKS_LIKE_AN_ADDRESS.test(address)) return;
    let current = true;
    const timer = window.setTimeout(() => {
      discoverSso(address)
        .then((answer) => {
          if (current) setOffer(answer.sso ? { email: address, sso: answer.sso } : null);
        })
        .catch(() => {
          if (current) setOffer(null);
        });
    }, DISCOVERY_DELAY_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [address]);
  // An offer found for an earlier address is not shown for this one.
  return offer && offer.email === address ? offer.sso : null;
}

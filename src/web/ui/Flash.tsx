import { useCallback, useEffect, useState } from 'react';
import styles from './Flash.module.css';

/** Spec section 9: flash banners disappear after 2.5 seconds. */
const FLASH_DURATION_MS = 2500;

export type FlashTone = 'success' | 'error' | 'info';

interface FlashMessage {
  text: string;
  tone: FlashTone;
  /** Distinguishes two equal messages shown one after the other, so the timer restarts. */
  id: number;
}

/** State for one banner that hides itself after FLASH_DURATION_MS. */
export function useFlash() {
  const [flash, setFlash] = useState<FlashMessage | null>(null);

  useEffect(() => {
    if (!flash) return;
    const timer = window.setTimeout(() => setFlash(null), FLASH_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [flash]);

  const showFlash = useCallback((text: string, tone: FlashTone = 'success') => {
    setFlash({ text, tone, id: Date.now() });
  }, []);

  return { flash, showFlash, clearFlash: useCallback(() => setFlash(null), []) };
}

/**
 * The banner. Its live region is always in the page, so screen readers announce each message
 * as it appears. A `floating` banner sits at the bottom of the window instead of in the flow.
 */
export function Flash({ flash, floating = false }: { flash: FlashMessage | null; floating?: boolean }) {
  return (
    <div className={floating ? `${styles.region} ${styles.floating}` : styles.region} role="status">
      {flash && (
        <p key={flash.id} className={[styles.flash, styles[flash.tone]].join(' ')}>
          {flash.text}
        </p>
      )}
    </div>
  );
}

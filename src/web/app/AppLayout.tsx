import { Trans } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import styles from './AppLayout.module.css';
import { Footer } from './Footer';
import { Header } from './Header';

/**
 * After an in-app navigation, move focus to the new screen's main landmark, so keyboard and
 * screen-reader users start reading at the new content instead of where the old link was.
 * Hash-only changes (#demo, #contact) are left to the browser.
 */
function useFocusMainOnNavigation(main: React.RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const previousPathname = useRef(pathname);
  useEffect(() => {
    if (previousPathname.current === pathname) return;
    previousPathname.current = pathname;
    main.current?.focus({ preventScroll: true });
  }, [pathname, main]);
}

export function AppLayout() {
  const mainRef = useRef<HTMLElement>(null);
  const navigation = useNavigation();
  useFocusMainOnNavigation(mainRef);
  const loadingScreen = navigation.state === 'loading';

  return (
    <div className={styles.app}>
      <a className={styles.skipLink} href="#main">
        <Trans>Skip to main content</Trans>
      </a>
      <div className={styles.progress} data-active={loadingScreen} aria-hidden="true" />
      <Header />
      <main id="main" ref={mainRef} tabIndex={-1} className={styles.main} aria-busy={loadingScreen}>
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}

/** Shown on the very first load while the first screen's code arrives. */
export function AppLoading() {
  return (
    <p className={styles.appLoading} role="status">
      <Trans>Loading...</Trans>
    </p>
  );
}

import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { productName } from '../config';
import { useAuthState } from '../features/auth/useCurrentUser';
import styles from './AppLayout.module.css';

/**
 * The site footer. Its "Demo Survey" and "Login" links are the header's links for visitors
 * (spec section 2); a signed-in user reaches their screens from the account menu instead.
 */
export function Footer() {
  const { t } = useLingui();
  const signedIn = useAuthState().role !== 'anonymous';
  const year = new Date().getFullYear();

  return (
    <footer className={styles.footer}>
      <div className={styles.footerInner}>
        <p className={styles.footerText}>
          <Trans>
            © {year} {productName}. Student responses are confidential and protected under FERPA.
          </Trans>
        </p>
        <nav aria-label={t`Footer`}>
          <ul className={styles.footerLinks}>
            {!signedIn && (
              <li>
                <Link to="/demo-survey/">
                  <Trans>Demo Survey</Trans>
                </Link>
              </li>
            )}
            <li>
              <Link to="/#contact">
                <Trans>Contact</Trans>
              </Link>
            </li>
            {!signedIn && (
              <li>
                <Link to="/login/">
                  <Trans>Login</Trans>
                </Link>
              </li>
            )}
          </ul>
        </nav>
      </div>
    </footer>
  );
}

import { Link } from 'react-router';
import { productName } from '../config';
import { useAuthState } from '../features/auth/useCurrentUser';
import styles from './AppLayout.module.css';

/**
 * The site footer. Its "Demo Survey" and "Login" links are the header's links for visitors
 * (spec section 2); a signed-in user reaches their screens from the account menu instead.
 */
export function Footer() {
  const signedIn = useAuthState().role !== 'anonymous';

  return (
    <footer className={styles.footer}>
      <div className={styles.footerInner}>
        <p className={styles.footerText}>
          © {new Date().getFullYear()} {productName}. Student responses are confidential and protected under
          FERPA.
        </p>
        <nav aria-label="Footer">
          <ul className={styles.footerLinks}>
            {!signedIn && (
              <li>
                <Link to="/demo-survey/">Demo Survey</Link>
              </li>
            )}
            <li>
              <Link to="/#contact">Contact</Link>
            </li>
            {!signedIn && (
              <li>
                <Link to="/login/">Login</Link>
              </li>
            )}
          </ul>
        </nav>
      </div>
    </footer>
  );
}

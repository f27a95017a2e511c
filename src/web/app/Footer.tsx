import { Link } from 'react-router';
import { productName } from '../config';
import styles from './AppLayout.module.css';

export function Footer() {
  return (
    <footer className={styles.footer}>
      <div className={styles.footerInner}>
        <p className={styles.footerText}>
          © {new Date().getFullYear()} {productName}. Student responses are confidential and protected under
          FERPA.
        </p>
        <nav aria-label="Footer">
          <ul className={styles.footerLinks}>
            <li>
              <Link to="/demo-survey/">Demo Survey</Link>
            </li>
            <li>
              <Link to="/#contact">Contact</Link>
            </li>
            <li>
              <Link to="/login/">Login</Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}

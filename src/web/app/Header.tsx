import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, NavLink } from 'react-router';
import { type Ability, can, type RoleName } from '../../common/roles';
import { productName } from '../config';
import { type AuthState, useAuthState } from '../features/auth/useCurrentUser';
import { useLogout } from '../features/auth/useLogout';
import styles from './Header.module.css';
import { LanguageSwitcher } from './LanguageSwitcher';
import { type MenuLink, UserMenu } from './UserMenu';
import { useRememberedLanguage } from './useRememberedLanguage';

const STUDENT_LINKS: readonly MenuLink[] = [
  { label: msg`New Survey`, to: '/survey/' },
  { label: msg`My Records`, to: '/account/records/' },
  { label: msg`Account`, to: '/account/' },
];

/** Every staff screen, in menu order, with what opening it takes (common/roles.ts). */
const STAFF_LINKS: readonly (MenuLink & { ability: Ability })[] = [
  { label: msg`Dashboard`, to: '/dashboard/', ability: 'dashboard' },
  { label: msg`Edit Templates`, to: '/admin/survey-templates/', ability: 'templates' },
  { label: msg`Preview Survey`, to: '/survey/', ability: 'templates' },
  { label: msg`Cases`, to: '/cases/', ability: 'cases' },
  { label: msg`Roster`, to: '/admin/roster/', ability: 'schedule' },
  { label: msg`Campaigns`, to: '/admin/campaigns/', ability: 'schedule' },
  { label: msg`Settings`, to: '/admin/settings/', ability: 'settings' },
  { label: msg`Student Records`, to: '/admin/records/', ability: 'settings' },
  { label: msg`Team`, to: '/admin/team/', ability: 'team' },
  { label: msg`Activity`, to: '/admin/activity/', ability: 'audit' },
  // Every staff member's own account and sign-in: all of them see the dashboard.
  { label: msg`Account`, to: '/account/', ability: 'dashboard' },
];

function staffLinks(role: RoleName): MenuLink[] {
  return STAFF_LINKS.filter((link) => can(role, link.ability)).map(({ label, to }) => ({ label, to }));
}

function navLinkClass({ isActive }: { isActive: boolean }) {
  return isActive ? `${styles.navLink} ${styles.navLinkActive}` : styles.navLink;
}

function HeaderActions({ auth, onLogout }: { auth: AuthState; onLogout: () => void }) {
  const { t } = useLingui();
  switch (auth.role) {
    case 'anonymous':
      return (
        <ul className={styles.navList}>
          <li>
            <NavLink className={navLinkClass} to="/demo-survey/">
              <Trans>Demo Survey</Trans>
            </NavLink>
          </li>
          <li>
            <NavLink className={styles.loginLink} to="/login/">
              <Trans>Login</Trans>
            </NavLink>
          </li>
        </ul>
      );
    case 'superuser':
      return <UserMenu buttonLabel={t`Logged in as Superuser`} badge links={[]} onLogout={onLogout} />;
    case 'admin':
    case 'counsellor':
    case 'viewer':
      return (
        <UserMenu buttonLabel={auth.email ?? t`Account`} links={staffLinks(auth.role)} onLogout={onLogout} />
      );
    case 'student':
      return <UserMenu buttonLabel={auth.email ?? t`Account`} links={STUDENT_LINKS} onLogout={onLogout} />;
  }
}

/** The site header: brand, and the navigation that matches who is signed in (spec section 2). */
export function Header() {
  const { t } = useLingui();
  const auth = useAuthState();
  const logout = useLogout();
  const rememberLanguage = useRememberedLanguage();

  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link to="/" className={styles.brand}>
          <svg className={styles.logo} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <rect width="32" height="32" rx="8" fill="#0c5f5b" />
            <path d="M16 6c-4 5-7 8.5-7 12.5a7 7 0 0 0 14 0C23 14.5 20 11 16 6z" fill="#e1f0ee" />
          </svg>
          <span>{productName}</span>
        </Link>
        {/* Beside the brand: on a phone it stays on the first row, whatever the menu's length. */}
        <LanguageSwitcher onChosen={rememberLanguage} />
        <nav aria-label={t`Main`} className={styles.nav}>
          <HeaderActions auth={auth} onLogout={logout} />
        </nav>
      </div>
    </header>
  );
}

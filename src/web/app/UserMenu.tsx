import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import styles from './Header.module.css';

export interface MenuLink {
  label: MessageDescriptor;
  to: string;
}

interface UserMenuProps {
  /** The text of the button that opens the menu (the user's email, or the superuser badge). */
  buttonLabel: string;
  links: readonly MenuLink[];
  onLogout: () => void;
  badge?: boolean;
}

/**
 * The account dropdown: a disclosure button and a list of links. It opens and closes on click,
 * closes on Escape (focus goes back to the button), on a click or focus outside, and after
 * navigation. Arrow keys move between the items.
 */
export function UserMenu({ buttonLabel, links, onLogout, badge = false }: UserMenuProps) {
  const { i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const location = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the point of a location change.
  useEffect(() => setOpen(false), [location.pathname]);

  // Attached as the menu opens (a layout effect runs with the render): a click outside straight
  // after opening must find it, and plain effects run in a later task.
  useLayoutEffect(() => {
    if (!open) return;
    const closeOnOutsidePointer = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOnOutsidePointer);
    return () => document.removeEventListener('pointerdown', closeOnOutsidePointer);
  }, [open]);

  function menuItems(): HTMLElement[] {
    return Array.from(containerRef.current?.querySelectorAll<HTMLElement>('[data-menu-item]') ?? []);
  }

  // Escape is handled here rather than on the document: focus is inside the menu while it is
  // open (leaving closes it), and this handler is in place from the render that opened it.
  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key === 'Escape' && open) {
      setOpen(false);
      buttonRef.current?.focus();
      return;
    }
    moveFocus(event);
  }

  function moveFocus(event: React.KeyboardEvent) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'Home' && event.key !== 'End')
      return;
    const items = menuItems();
    if (items.length === 0) return;
    event.preventDefault();
    if (!open) setOpen(true);
    const current = items.indexOf(document.activeElement as HTMLElement);
    let next = 0;
    if (event.key === 'End') next = items.length - 1;
    else if (event.key === 'ArrowDown') next = current === -1 ? 0 : (current + 1) % items.length;
    else if (event.key === 'ArrowUp') next = current <= 0 ? items.length - 1 : current - 1;
    // Items render on open; wait a frame when the menu was closed.
    requestAnimationFrame(() => menuItems()[next]?.focus());
  }

  function closeWhenFocusLeaves(event: React.FocusEvent) {
    if (open && !containerRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the handlers only manage focus for the controls inside.
    <div className={styles.menu} ref={containerRef} onKeyDown={onKeyDown} onBlur={closeWhenFocusLeaves}>
      <button
        ref={buttonRef}
        type="button"
        className={badge ? styles.badgeButton : styles.menuButton}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((isOpen) => !isOpen)}
      >
        <span className={styles.menuButtonText} title={buttonLabel}>
          {buttonLabel}
        </span>
        <span className={styles.chevron} aria-hidden="true" />
      </button>
      <ul id={menuId} className={styles.menuList} hidden={!open}>
        {links.map((link) => (
          <li key={link.to}>
            <Link data-menu-item="" className={styles.menuItem} to={link.to}>
              {i18n._(link.label)}
            </Link>
          </li>
        ))}
        <li>
          <button data-menu-item="" type="button" className={styles.menuItem} onClick={onLogout}>
            <Trans>Logout</Trans>
          </button>
        </li>
      </ul>
    </div>
  );
}

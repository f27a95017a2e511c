import type { ButtonHTMLAttributes } from 'react';
import { Link, type LinkProps } from 'react-router';
import styles from './Button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

interface ButtonLookProps {
  variant?: ButtonVariant;
  size?: 'medium' | 'small';
  fullWidth?: boolean;
}

/** The class list of a button look, for elements that must look like a button but are not one. */
export function buttonClassName({
  variant = 'primary',
  size = 'medium',
  fullWidth = false,
}: ButtonLookProps = {}) {
  return [styles.button, styles[variant], size === 'small' && styles.small, fullWidth && styles.fullWidth]
    .filter(Boolean)
    .join(' ');
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> &
  ButtonLookProps & {
    /**
     * Work started by this button is under way: it looks and is announced as disabled but keeps
     * focus (a truly disabled button drops focus to the page, losing the user's place). The
     * caller ignores repeated activations.
     */
    busy?: boolean;
  };

/** A button that defaults to type="button", so it never submits a form by accident. */
export function Button({ variant, size, fullWidth, className, type = 'button', busy, ...rest }: ButtonProps) {
  const classes = [buttonClassName({ variant, size, fullWidth }), className].filter(Boolean).join(' ');
  return <button type={type} className={classes} aria-disabled={busy || undefined} {...rest} />;
}

type ButtonLinkProps = LinkProps & ButtonLookProps;

/** An in-app link that looks like a button (navigation stays a link for assistive technology). */
export function ButtonLink({ variant, size, fullWidth, className, ...rest }: ButtonLinkProps) {
  const classes = [buttonClassName({ variant, size, fullWidth }), className].filter(Boolean).join(' ');
  return <Link className={classes} {...rest} />;
}

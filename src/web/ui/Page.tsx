import type { ReactNode } from 'react';
import styles from './Page.module.css';

interface PageProps {
  children: ReactNode;
  width?: 'wide' | 'medium' | 'narrow';
  className?: string;
}

/** The content column of a screen. */
export function Page({ children, width = 'wide', className }: PageProps) {
  const classes = [styles.page, width !== 'wide' && styles[width], className].filter(Boolean).join(' ');
  return <div className={classes}>{children}</div>;
}

/** A white panel with a border, for forms and grouped content. */
export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={[styles.card, className].filter(Boolean).join(' ')}>{children}</div>;
}

export function Lead({ children }: { children: ReactNode }) {
  return <p className={styles.lead}>{children}</p>;
}

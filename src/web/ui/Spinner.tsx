import styles from './Spinner.module.css';

/** A small turning ring beside a loading message; the message itself is what gets announced. */
export function Spinner() {
  return <span className={styles.spinner} aria-hidden="true" />;
}

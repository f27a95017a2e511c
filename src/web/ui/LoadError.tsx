import { Trans } from '@lingui/react/macro';
import { Button } from './Button';
import styles from './LoadError.module.css';

/** Data that could not be loaded: what went wrong, announced at once, and a Try again button. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className={styles.loadError} role="alert">
      <p>{message}</p>
      <Button variant="secondary" size="small" onClick={onRetry}>
        <Trans>Try again</Trans>
      </Button>
    </div>
  );
}

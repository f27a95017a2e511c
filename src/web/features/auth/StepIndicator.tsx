import { Trans, useLingui } from '@lingui/react/macro';
import styles from './Auth.module.css';

interface StepIndicatorProps {
  steps: readonly string[];
  /** 1-based number of the step being shown. */
  current: number;
}

/** The numbered progress of a multi-step form; the current step carries aria-current="step". */
export function StepIndicator({ steps, current }: StepIndicatorProps) {
  const { t } = useLingui();
  return (
    <ol className={styles.steps} aria-label={t`Registration progress`}>
      {steps.map((label, index) => {
        const number = index + 1;
        const state =
          number < current ? styles.stepDone : number === current ? styles.stepCurrent : undefined;
        return (
          <li
            key={label}
            className={[styles.step, state].filter(Boolean).join(' ')}
            aria-current={number === current ? 'step' : undefined}
          >
            {label}
            {number < current && (
              <span className="visually-hidden">
                {' '}
                <Trans>(completed)</Trans>
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

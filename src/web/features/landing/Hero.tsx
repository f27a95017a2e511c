import { Trans } from '@lingui/react/macro';
import { productName } from '../../config';
import { buttonClassName } from '../../ui/Button';
import { LIKERT_CHOICES } from '../survey/likert';
import styles from './Landing.module.css';

/** A picture of a check-in question, so visitors see what students answer. Decorative. */
function CheckInIllustration() {
  return (
    <div className={styles.illustration} aria-hidden="true">
      <p className={styles.illustrationEyebrow}>
        <Trans>Weekly check-in</Trans>
      </p>
      <p className={styles.illustrationQuestion}>
        <Trans>How well have you been sleeping this week?</Trans>
      </p>
      <div className={styles.illustrationScale}>
        {LIKERT_CHOICES.map((choice) => (
          <span
            key={choice.label}
            className={choice.value === '2' ? styles.illustrationChoiceActive : undefined}
          >
            <span className={styles.illustrationEmoji}>{choice.emoji}</span>
            {choice.label}
          </span>
        ))}
      </div>
      <p className={styles.illustrationFooter}>
        <Trans>Takes about 2 minutes · Confidential</Trans>
      </p>
    </div>
  );
}

export function Hero() {
  return (
    <section className={styles.hero} aria-labelledby="hero-heading">
      <div className={styles.heroInner}>
        <div className={styles.heroText}>
          <p className={styles.eyebrow}>
            <Trans>Student wellness, measured with care</Trans>
          </p>
          <h1 id="hero-heading">
            <Trans>Proactive Mental Health Support for Universities</Trans>
          </h1>
          <p className={styles.heroLead}>
            <Trans>
              {productName} runs short wellness check-ins with your students and shows your counselling team,
              in real time, who may need support, so help can reach them early.
            </Trans>
          </p>
          <div className={styles.heroActions}>
            <a className={buttonClassName()} href="#demo">
              <Trans>Watch Demo</Trans>
            </a>
            <a className={buttonClassName({ variant: 'secondary' })} href="#contact">
              <Trans>Get a Quote</Trans>
            </a>
          </div>
          <ul className={styles.heroPoints}>
            <li>
              <Trans>FERPA compliant</Trans>
            </li>
            <li>
              <Trans>Real-time analytics</Trans>
            </li>
            <li>
              <Trans>Works on any device</Trans>
            </li>
          </ul>
        </div>
        <CheckInIllustration />
      </div>
    </section>
  );
}

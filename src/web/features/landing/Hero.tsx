import { productName } from '../../config';
import { buttonClassName } from '../../ui/Button';
import { LIKERT_CHOICES } from '../survey/likert';
import styles from './Landing.module.css';

/** A picture of a check-in question, so visitors see what students answer. Decorative. */
function CheckInIllustration() {
  return (
    <div className={styles.illustration} aria-hidden="true">
      <p className={styles.illustrationEyebrow}>Weekly check-in</p>
      <p className={styles.illustrationQuestion}>How well have you been sleeping this week?</p>
      <div className={styles.illustrationScale}>
        {LIKERT_CHOICES.map((choice) => (
          <span
            key={choice.label}
            className={choice.label === 'Good' ? styles.illustrationChoiceActive : undefined}
          >
            <span className={styles.illustrationEmoji}>{choice.emoji}</span>
            {choice.label}
          </span>
        ))}
      </div>
      <p className={styles.illustrationFooter}>Takes about 2 minutes · Confidential</p>
    </div>
  );
}

export function Hero() {
  return (
    <section className={styles.hero} aria-labelledby="hero-heading">
      <div className={styles.heroInner}>
        <div className={styles.heroText}>
          <p className={styles.eyebrow}>Student wellness, measured with care</p>
          <h1 id="hero-heading">Proactive Mental Health Support for Universities</h1>
          <p className={styles.heroLead}>
            {productName} runs short wellness check-ins with your students and shows your counselling team, in
            real time, who may need support, so help can reach them early.
          </p>
          <div className={styles.heroActions}>
            <a className={buttonClassName()} href="#demo">
              Watch Demo
            </a>
            <a className={buttonClassName({ variant: 'secondary' })} href="#contact">
              Get a Quote
            </a>
          </div>
          <ul className={styles.heroPoints}>
            <li>FERPA compliant</li>
            <li>Real-time analytics</li>
            <li>Works on any device</li>
          </ul>
        </div>
        <CheckInIllustration />
      </div>
    </section>
  );
}

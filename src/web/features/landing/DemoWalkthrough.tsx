import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { LIKERT_CHOICES } from '../survey/likert';
import styles from './DemoWalkthrough.module.css';

/**
 * The demo section when no video is configured: the product in three captioned steps, each a
 * miniature of the real screen drawn in plain markup and CSS (no images, no script), so it costs
 * the landing page next to nothing. The miniatures are decoration; the captions carry the story.
 */

function SurveyMiniature() {
  return (
    <div className={styles.screen}>
      <p className={styles.screenTitle}>
        <Trans>Student Wellness Check</Trans>
      </p>
      <p className={styles.question}>
        <Trans>How would you rate your overall well-being?</Trans>
      </p>
      <div className={styles.choices}>
        {LIKERT_CHOICES.map(({ value, label }) => (
          <span key={value} className={value === '2' ? styles.choiceChosen : styles.choice}>
            {label}
          </span>
        ))}
      </div>
      <p className={styles.progress}>
        <Trans>6 of 7 questions answered</Trans>
      </p>
      <span className={styles.button}>
        <Trans>Submit Survey</Trans>
      </span>
    </div>
  );
}

function SupportMiniature() {
  return (
    <div className={styles.screen}>
      <p className={styles.thanks}>
        <Trans>Thank you! Your responses have been submitted.</Trans>
      </p>
      <div className={styles.help}>
        <p className={styles.helpTitle}>
          <Trans>You don&apos;t have to go through this alone</Trans>
        </p>
        <p className={styles.helpLine}>
          <Trans>Call or text 988, any time</Trans>
        </p>
        <p className={styles.helpLine}>
          <Trans>Campus counselling, walk in today</Trans>
        </p>
      </div>
    </div>
  );
}

function DashboardMiniature() {
  return (
    <div className={styles.screen}>
      <p className={styles.screenTitle}>
        <Trans>Student Wellness Dashboard</Trans>
      </p>
      <div className={styles.metrics}>
        <span>
          <Trans>
            <strong>128</strong> surveys
          </Trans>
        </span>
        <span className={styles.metricAlert}>
          <Trans>
            <strong>4</strong> at risk
          </Trans>
        </span>
        <span>
          <Trans>
            <strong>72%</strong> responded
          </Trans>
        </span>
      </div>
      <ul className={styles.flagged}>
        <li>
          <Trans>
            <span className={styles.urgent}>Urgent</span> Student A.
          </Trans>
        </li>
        <li>
          <Trans>
            <span className={styles.elevated}>Follow up</span> Student B.
          </Trans>
        </li>
      </ul>
      <div className={styles.bars}>
        {[1, 2, 3, 4, 5, 6].map((bar) => (
          <span key={bar} />
        ))}
      </div>
    </div>
  );
}

const STEPS = [
  {
    title: msg`A student checks in`,
    text: msg`Seven short questions, on a phone or a laptop, through their account or a shared link. Answers are saved as they go.`,
    screen: <SurveyMiniature />,
  },
  {
    title: msg`Help shows up at once`,
    text: msg`Every answer is screened the moment it lands. A student in crisis is shown where to get help right away.`,
    screen: <SupportMiniature />,
  },
  {
    title: msg`Your team sees who needs outreach`,
    text: msg`The live dashboard lists the students to contact first, with the trends of your whole campus.`,
    screen: <DashboardMiniature />,
  },
];

export function DemoWalkthrough() {
  const { t, i18n } = useLingui();
  return (
    <div className={styles.walkthrough}>
      <ol className={styles.steps} aria-label={t`Product walkthrough`}>
        {STEPS.map((step, index) => (
          <li key={step.title.id} className={styles.step}>
            <div className={styles.frame} aria-hidden="true">
              {step.screen}
            </div>
            <h3 className={styles.stepTitle}>
              <span className={styles.stepNumber}>{index + 1}</span>
              {i18n._(step.title)}
            </h3>
            <p className={styles.stepText}>{i18n._(step.text)}</p>
          </li>
        ))}
      </ol>
      <p className={styles.next}>
        <Trans>
          <Link to="/demo-survey/">Try the demo survey</Link> or{' '}
          <a href="#contact">ask us for a live walkthrough</a>.
        </Trans>
      </p>
    </div>
  );
}

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
      <p className={styles.screenTitle}>Student Wellness Check</p>
      <p className={styles.question}>How would you rate your overall well-being?</p>
      <div className={styles.choices}>
        {LIKERT_CHOICES.map(({ value, label }) => (
          <span key={value} className={value === '2' ? styles.choiceChosen : styles.choice}>
            {label}
          </span>
        ))}
      </div>
      <p className={styles.progress}>6 of 7 questions answered</p>
      <span className={styles.button}>Submit Survey</span>
    </div>
  );
}

function SupportMiniature() {
  return (
    <div className={styles.screen}>
      <p className={styles.thanks}>Thank you! Your responses have been submitted.</p>
      <div className={styles.help}>
        <p className={styles.helpTitle}>You don&apos;t have to go through this alone</p>
        <p className={styles.helpLine}>Call or text 988, any time</p>
        <p className={styles.helpLine}>Campus counselling, walk in today</p>
      </div>
    </div>
  );
}

function DashboardMiniature() {
  return (
    <div className={styles.screen}>
      <p className={styles.screenTitle}>Student Wellness Dashboard</p>
      <div className={styles.metrics}>
        <span>
          <strong>128</strong> surveys
        </span>
        <span className={styles.metricAlert}>
          <strong>4</strong> at risk
        </span>
        <span>
          <strong>72%</strong> responded
        </span>
      </div>
      <ul className={styles.flagged}>
        <li>
          <span className={styles.urgent}>Urgent</span> Student A.
        </li>
        <li>
          <span className={styles.elevated}>Follow up</span> Student B.
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
    title: 'A student checks in',
    text: 'Seven short questions, on a phone or a laptop, through their account or a shared link. Answers are saved as they go.',
    screen: <SurveyMiniature />,
  },
  {
    title: 'Help shows up at once',
    text: 'Every answer is screened the moment it lands. A student in crisis is shown where to get help right away.',
    screen: <SupportMiniature />,
  },
  {
    title: 'Your team sees who needs outreach',
    text: 'The live dashboard lists the students to contact first, with the trends of your whole campus.',
    screen: <DashboardMiniature />,
  },
];

export function DemoWalkthrough() {
  return (
    <div className={styles.walkthrough}>
      <ol className={styles.steps} aria-label="Product walkthrough">
        {STEPS.map((step, index) => (
          <li key={step.title} className={styles.step}>
            <div className={styles.frame} aria-hidden="true">
              {step.screen}
            </div>
            <h3 className={styles.stepTitle}>
              <span className={styles.stepNumber}>{index + 1}</span>
              {step.title}
            </h3>
            <p className={styles.stepText}>{step.text}</p>
          </li>
        ))}
      </ol>
      <p className={styles.next}>
        <Link to="/demo-survey/">Try the demo survey</Link> or{' '}
        <a href="#contact">ask us for a live walkthrough</a>.
      </p>
    </div>
  );
}

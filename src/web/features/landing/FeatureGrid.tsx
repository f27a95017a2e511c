import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import styles from './Landing.module.css';

interface Feature {
  title: MessageDescriptor;
  description: MessageDescriptor;
  icon: ReactNode;
}

/** Simple line icons (24 px grid); decorative, the card titles carry the meaning. */
const icon = (path: ReactNode) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    {path}
  </svg>
);

const FEATURES: readonly Feature[] = [
  {
    title: msg`Mental Health Monitoring`,
    description: msg`Short, regular check-ins show how students are really doing, so counsellors can reach out before a hard week becomes a crisis.`,
    icon: icon(<path d="M3 12h4l2-5 4 10 2-5h6" />),
  },
  {
    title: msg`FERPA Compliance`,
    description: msg`Responses stay confidential, each institution sees only its own students, and records are handled in line with FERPA.`,
    icon: icon(
      <>
        <path d="M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6l7-3z" />
        <path d="M9 12l2 2 4-4" />
      </>,
    ),
  },
  {
    title: msg`Data-Driven Insights`,
    description: msg`A live dashboard of sleep, stress, feeling supported and response rates shows where support is needed most.`,
    icon: icon(
      <>
        <path d="M4 20V10" />
        <path d="M10 20V4" />
        <path d="M16 20v-7" />
        <path d="M22 20H2" />
      </>,
    ),
  },
  {
    title: msg`Instant Feedback for Students`,
    description: msg`Students see where to find help the moment they submit, including crisis lines when they need them most.`,
    icon: icon(
      <>
        <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.4A8 8 0 1 1 21 12z" />
        <path d="M9 11h6M9 14h4" />
      </>,
    ),
  },
  {
    title: msg`Easy Access to Surveys`,
    description: msg`Students answer in about two minutes on any device, signed in or through a link you share.`,
    icon: icon(
      <>
        <rect x="6" y="2" width="12" height="20" rx="2" />
        <path d="M11 18h2" />
      </>,
    ),
  },
  {
    title: msg`Student Success`,
    description: msg`Wellbeing and learning go together: early support keeps students engaged, enrolled and on track to graduate.`,
    icon: icon(
      <>
        <path d="M2 9l10-5 10 5-10 5L2 9z" />
        <path d="M6 11v5c3 2 9 2 12 0v-5" />
      </>,
    ),
  },
];

export function FeatureGrid() {
  const { i18n } = useLingui();
  return (
    <section className={styles.section} aria-labelledby="features-heading">
      <div className={styles.sectionInner}>
        <h2 id="features-heading" className={styles.sectionHeading}>
          <Trans>Core features</Trans>
        </h2>
        <p className={styles.sectionLead}>
          <Trans>Everything a counselling centre needs to listen to its students at scale.</Trans>
        </p>
        <ul className={styles.featureGrid}>
          {FEATURES.map((feature) => (
            <li key={feature.title.id} className={styles.featureCard}>
              <span className={styles.featureIcon}>{feature.icon}</span>
              <h3>{i18n._(feature.title)}</h3>
              <p>{i18n._(feature.description)}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

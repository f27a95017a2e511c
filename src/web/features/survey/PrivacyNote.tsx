import styles from './Survey.module.css';

/**
 * How the survey knows who answered: from the account signed in, from the personal invitation it
 * was mailed with, or from the name and email typed on a shared link. Every survey is identified
 * today; design section 14 has each say so.
 */
export type SurveyIdentity = 'account' | 'invitation' | 'typed';

const IDENTIFIED: Record<SurveyIdentity, string> = {
  account:
    'This survey is not anonymous: your answers are kept with the name and school email of your account.',
  invitation:
    'This survey is not anonymous: your answers are kept with the name and school email your invitation was sent to.',
  typed: 'This survey is not anonymous: your answers are kept with the name and school email you give above.',
};

/**
 * Spec section 2's note (confidential, FERPA, student support), and what follows from the answers
 * in plain words: who they are kept with, and that a counsellor may get in touch.
 */
export function PrivacyNote({ identity }: { identity: SurveyIdentity }) {
  return (
    <div className={styles.privacy}>
      <svg className={styles.privacyIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d="M7 10V7a5 5 0 0 1 10 0v3M5 10h14v11H5z"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
        />
      </svg>
      <div className={styles.privacyText}>
        <p>
          Your responses are confidential and protected under FERPA. They are used only to improve student
          support services.
        </p>
        <p>{IDENTIFIED[identity]}</p>
        <p>
          Counselling staff at your school can read your answers. If they suggest you could use some support,
          a counsellor may reach out to you.
        </p>
      </div>
    </div>
  );
}

import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import styles from './Survey.module.css';

/**
 * How the survey knows who answered: from the account signed in, from the personal invitation it
 * was mailed with, or from the name and email typed on a shared link; or it does not know
 * (`anonymous`: an anonymous campaign's invitation, design section 14).
 */
export type SurveyIdentity = 'account' | 'invitation' | 'typed' | 'anonymous';

/**
 * Which kind of survey it is, said first (design section 14). Every identified survey is
 * confidential: its answers carry the student's name, and only the counsellors and administrators
 * of this service see them with it; other staff see figures over groups of students only.
 */
const CONFIDENTIAL = {
  name: msg`Confidential survey`,
  text: msg`Your answers are kept with your name. Only counselling staff and the administrators of this service at your school see them.`,
};
const KIND: Record<SurveyIdentity, { name: MessageDescriptor; text: MessageDescriptor }> = {
  anonymous: {
    name: msg`Anonymous survey`,
    text: msg`Your answers are kept without your name, email or network address, and staff see them only as totals over groups of students.`,
  },
  account: CONFIDENTIAL,
  invitation: CONFIDENTIAL,
  typed: CONFIDENTIAL,
};

/** The kind of survey, near the top of the form. */
export function SurveyKind({ identity }: { identity: SurveyIdentity }) {
  const { i18n } = useLingui();
  const kind = KIND[identity];
  return (
    <p className={styles.kind}>
      <strong>{i18n._(kind.name)}.</strong> {i18n._(kind.text)}
    </p>
  );
}

const IDENTIFIED: Record<Exclude<SurveyIdentity, 'anonymous'>, MessageDescriptor> = {
  account: msg`This survey is not anonymous: your answers are kept with the name and school email of your account.`,
  invitation: msg`This survey is not anonymous: your answers are kept with the name and school email your invitation was sent to.`,
  typed: msg`This survey is not anonymous: your answers are kept with the name and school email you give above.`,
};

/**
 * Spec section 2's note (confidential, FERPA, student support), and what follows from the answers
 * in plain words: who they are kept with, and whether a counsellor may get in touch.
 */
export function PrivacyNote({ identity }: { identity: SurveyIdentity }) {
  const { i18n } = useLingui();
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
      {identity === 'anonymous' ? (
        <div className={styles.privacyText}>
          <p>
            <Trans>
              This survey is anonymous: your invitation link shows only that you are one of the students
              invited, once. Your answers are not kept with your name, email or network address, and no one
              can tell which answers are yours.
            </Trans>
          </p>
          <p>
            <Trans>
              No one will contact you because of your answers. If you would like a counsellor to get in touch,
              you can ask for it after you submit, with the contact details you choose to give.
            </Trans>
          </p>
        </div>
      ) : (
        <div className={styles.privacyText}>
          <p>
            <Trans>
              Your responses are confidential and protected under FERPA. They are used only to improve student
              support services.
            </Trans>
          </p>
          <p>{i18n._(IDENTIFIED[identity])}</p>
          <p>
            <Trans>
              Counselling staff at your school can read your answers. If they suggest you could use some
              support, a counsellor may reach out to you.
            </Trans>
          </p>
        </div>
      )}
    </div>
  );
}

import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../ui/Button';
import { Card, Page } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import styles from './Survey.module.css';

/** "Back": to the previous screen of this visit, or home when the survey was opened directly. */
function useGoBack() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => (location.key === 'default' ? navigate('/') : navigate(-1));
}

interface SurveyFrameProps {
  viaLink: boolean;
  /** Buttons at the right of the toolbar (Start fresh). */
  actions?: ReactNode;
  children: ReactNode;
}

/** The survey screen's frame in every state: Back, the title and the shared-link note (spec section 2). */
export function SurveyFrame({ viaLink, actions, children }: SurveyFrameProps) {
  const goBack = useGoBack();
  return (
    <Page width="medium">
      <Card className={styles.card}>
        <div className={styles.toolbar}>
          <Button variant="ghost" size="small" onClick={goBack}>
            <span aria-hidden="true">←</span> <Trans>Back</Trans>
          </Button>
          {actions}
        </div>
        <h1 className={styles.title}>
          <Trans>Student Wellness Check</Trans>
        </h1>
        {viaLink && (
          <p className={styles.linkNote}>
            <svg className={styles.linkIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path
                d="M10 14a5 5 0 0 0 7.07 0l3-3a5 5 0 0 0-7.07-7.07l-1.5 1.5M14 10a5 5 0 0 0-7.07 0l-3 3a5 5 0 0 0 7.07 7.07l1.5-1.5"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
            <Trans>Survey accessed via shared link</Trans>
          </p>
        )}
        {children}
      </Card>
    </Page>
  );
}

export function SurveyLoading({ viaLink }: { viaLink: boolean }) {
  return (
    <SurveyFrame viaLink={viaLink}>
      <div className={styles.loading} role="status">
        <Spinner />
        <Trans>Loading survey...</Trans>
      </div>
    </SurveyFrame>
  );
}

/** Spec section 2: the text of a link's survey that cannot be taken (the server has no such reply). */
export const LINK_UNAVAILABLE_MESSAGE = msg`This survey is not available or may have expired.`;

export function SurveyUnavailable({
  viaLink,
  message,
  onRetry,
}: {
  viaLink: boolean;
  message: string;
  onRetry?: () => void;
}) {
  return (
    <SurveyFrame viaLink={viaLink}>
      <div className={styles.unavailable}>
        <p className={styles.unavailableMessage}>{message}</p>
        <div className={styles.unavailableActions}>
          <Button disabled>
            <Trans>Survey not available</Trans>
          </Button>
          {onRetry && (
            <Button variant="secondary" onClick={onRetry}>
              <Trans>Try again</Trans>
            </Button>
          )}
        </div>
      </div>
    </SurveyFrame>
  );
}

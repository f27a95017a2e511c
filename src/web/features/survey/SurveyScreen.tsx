import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { api, hasErrorCode, mayPassOnRetry } from '../../api';
import { pageTitle } from '../../config';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { loginPathFor } from '../auth/loginPath';
import { CURRENT_USER_QUERY_KEY, useCurrentUser } from '../auth/useCurrentUser';
import { SurveyForm } from './SurveyForm';
import { LINK_UNAVAILABLE_MESSAGE, SurveyLoading, SurveyUnavailable } from './SurveyFrame';
import { linkSurveyQuery, ownSurveyQuery } from './surveyApi';

/**
 * The server's own words (common/schemas/surveys.ts: LINK_NOT_FOUND, NO_SURVEY_FOR_INSTITUTION),
 * shown here without asking it, in the page's language.
 */
const LINK_NOT_FOUND = msg`Survey link not found or has expired.`;
const NO_SURVEY_FOR_INSTITUTION = msg`No survey questions are currently available for your institution. Please contact your administrator.`;

/**
 * The survey at /survey/ (the logged-in user's institution) and /survey/link/{hashLink}/ (anyone
 * holding the link): loading, then available, unavailable or, after a submit, submitted.
 */
export function SurveyScreen() {
  const { t, i18n } = useLingui();
  useDocumentTitle(pageTitle(t`Student Wellness Check`));
  const { hashLink } = useParams();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const currentUser = useCurrentUser();
  const user = currentUser.data;
  const viaLink = hashLink !== undefined;

  const questions = useQuery(
    hashLink !== undefined
      ? linkSurveyQuery(hashLink, api, i18n.locale)
      : ownSurveyQuery(user?.email, i18n.locale),
  );

  const sessionEnded = hasErrorCode(questions.error, 'UNAUTHENTICATED');
  useEffect(() => {
    // The cached user is stale: forget it, or the login page would send the user straight back.
    if (sessionEnded) queryClient.setQueryData(CURRENT_USER_QUERY_KEY, null);
  }, [sessionEnded, queryClient]);

  if ((!viaLink && user === null) || sessionEnded) {
    return <Navigate to={loginPathFor(pathname)} replace />;
  }
  const unavailableMessage = i18n._(viaLink ? LINK_UNAVAILABLE_MESSAGE : NO_SURVEY_FOR_INSTITUTION);
  if (!viaLink && currentUser.isError) {
    return (
      <SurveyUnavailable
        viaLink={false}
        message={unavailableMessage}
        onRetry={() => void currentUser.refetch()}
      />
    );
  }
  if (currentUser.isPending || questions.isPending) return <SurveyLoading viaLink={viaLink} />;

  if (questions.error) {
    if (viaLink && hasErrorCode(questions.error, 'NOT_FOUND')) {
      return <SurveyUnavailable viaLink message={i18n._(LINK_NOT_FOUND)} />;
    }
    return (
      <SurveyUnavailable
        viaLink={viaLink}
        message={unavailableMessage}
        onRetry={mayPassOnRetry(questions.error) ? () => void questions.refetch() : undefined}
      />
    );
  }

  const { questions: surveyQuestions, template_id: templateId } = questions.data;
  if (surveyQuestions.length === 0)
    return <SurveyUnavailable viaLink={viaLink} message={unavailableMessage} />;

  return (
    <SurveyForm
      // A different template or account is a different survey: start its state afresh.
      key={`${templateId}:${user?.email ?? ''}`}
      questions={surveyQuestions}
      templateId={templateId}
      hashLink={hashLink}
      user={user ?? null}
      onSurveyChanged={async () => {
        await questions.refetch();
      }}
    />
  );
}

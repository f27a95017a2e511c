import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, errorMessage, hasErrorCode, mayPassOnRetry } from '../../api';
import { pageTitle } from '../../config';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useCurrentUser } from '../auth/useCurrentUser';
import { SurveyForm } from './SurveyForm';
import { LINK_UNAVAILABLE_MESSAGE, SurveyLoading, SurveyUnavailable } from './SurveyFrame';
import { invitationSurveyQuery } from './surveyApi';

/**
 * The survey of a personal invitation link, /survey/invite/{token}/ (design section 10): answered
 * as the student it was mailed to, without a password or a code, once per round.
 */
export function InvitationSurveyScreen() {
  const { t, i18n } = useLingui();
  useDocumentTitle(pageTitle(t`Student Wellness Check`));
  const { token = '' } = useParams();
  const currentUser = useCurrentUser();
  const survey = useQuery(invitationSurveyQuery(token, api, i18n.locale));

  // A personal link is not the shared link: its frame has no "accessed via shared link" note, in
  // every state, so nothing moves when the form replaces the loading state.
  const unavailable = i18n._(LINK_UNAVAILABLE_MESSAGE);
  if (survey.isPending || currentUser.isPending) return <SurveyLoading viaLink={false} />;
  if (survey.error) {
    // The server says why: not a link of ours, expired, already answered, or someone else's.
    const known = hasErrorCode(survey.error, 'NOT_FOUND', 'CONFLICT', 'FORBIDDEN');
    return (
      <SurveyUnavailable
        viaLink={false}
        message={known ? errorMessage(survey.error, unavailable) : unavailable}
        onRetry={mayPassOnRetry(survey.error) ? () => void survey.refetch() : undefined}
      />
    );
  }
  const {
    questions,
    template_id: templateId,
    student_name: name,
    school_email: email,
    anonymous,
  } = survey.data;
  if (questions.length === 0) return <SurveyUnavailable viaLink={false} message={unavailable} />;
  return (
    <SurveyForm
      key={`${templateId}:${token}`}
      questions={questions}
      templateId={templateId}
      hashLink={undefined}
      user={currentUser.data ?? null}
      invitation={{ token, name, email, anonymous }}
      onSurveyChanged={async () => {
        await survey.refetch();
      }}
    />
  );
}

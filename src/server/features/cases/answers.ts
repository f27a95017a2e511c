import { scanText } from '../../../common/risk/scan-text';
import { type ScreenedAnswer, screenSubmissionSafely } from '../../../common/risk/screen';
import type { ScreeningFinding, SubmittedAnswer } from '../../../common/schemas/cases';
import { isLikertValue } from '../../../common/schemas/templates';
import { answerLabelOf } from '../templates';
import type { RespondentSubmissionRow } from './queries';

type AnswerRow = RespondentSubmissionRow['answers'][number];

/**
 * The words the student saw for a Likert answer. Questions are never edited, so while the
 * question exists its labels are the ones shown; once it is deleted, its own labels (if it had
 * any) are gone, and guessing the survey's standard words could misstate a self-harm answer.
 */
function labelOf(answer: AnswerRow): string | null {
  if (answer.question_id === null) return null;
  return answerLabelOf(answer, answer.value);
}

/** Every answer of a submission as the student gave it, written answers with the phrases screening matched. */
export function submittedAnswersOf(row: RespondentSubmissionRow): SubmittedAnswer[] {
  return row.answers.map((answer) => ({
    question_id: answer.question_id,
    question_text: answer.question_text,
    question_type: answer.question_type,
    category: answer.category,
    value: answer.value,
    answer_label: labelOf(answer),
    phrases:
      answer.question_type === 'text'
        ? scanText(answer.value).phrases.map(({ start, end, severity }) => ({ start, end, severity }))
        : [],
  }));
}

/**
 * Which rule raised which tier, worded today from the answers as stored: submissions screened
 * before the reasons were worded in the survey's own words read the right way round too. The
 * worsening rule compares with the student's proven submission before this one.
 */
export function findingsOf(
  row: RespondentSubmissionRow,
  previousLikertMean: number | null,
): ScreeningFinding[] {
  const answers: ScreenedAnswer[] = row.answers.map((answer) => {
    const label = labelOf(answer);
    const unlabelled = isLikertValue(answer.value) ? `${answer.value} (1 best, 5 worst)` : undefined;
    return {
      questionType: answer.question_type,
      category: answer.category,
      value: answer.value,
      label: label ?? unlabelled,
    };
  });
  return screenSubmissionSafely({ answers, previousLikertMean }).findings;
}

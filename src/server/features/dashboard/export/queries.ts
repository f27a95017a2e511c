import type { Executor } from '../../../db/executor';

// ---------------------------------------------------------------------------------------------
// CSV export: keyset pages, so memory stays flat however many submissions there are.

/** Every question ever answered at the institution, by its text, in order of first appearance. */
export async function answeredQuestionTexts(db: Executor, institutionId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('answers')
    .innerJoin('submissions', 'submissions.id', 'answers.submission_id')
    .select(['answers.question_text', (eb) => eb.fn.min('answers.id').as('first_id')])
    .where('submissions.institution_id', '=', institutionId)
    .groupBy('answers.question_text')
    .orderBy('first_id')
    .execute();
  return rows.map((row) => row.question_text);
}

export interface SubmissionCursor {
  createdAt: number;
  id: number;
}

export function submissionsPage(
  db: Executor,
  institutionId: number,
  after: SubmissionCursor | null,
  limit: number,
) {
  return db
    .selectFrom('submissions')
    .select([
      'id',
      'created_at',
      'student_name',
      'school_email',
      'verified_at',
      'template_id',
      'tier',
      'reasons',
    ])
    .where('institution_id', '=', institutionId)
    .$if(after !== null, (query) =>
      query.where((eb) =>
        eb.or([
          eb('created_at', '>', after?.createdAt ?? 0),
          eb.and([eb('created_at', '=', after?.createdAt ?? 0), eb('id', '>', after?.id ?? 0)]),
        ]),
      ),
    )
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function answersOf(db: Executor, submissionIds: number[]) {
  if (submissionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('answers')
    .select(['submission_id', 'question_text', 'value'])
    .where('submission_id', 'in', submissionIds)
    .orderBy('id')
    .execute();
}

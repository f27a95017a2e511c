import type { Kysely } from 'kysely';
import { parseStoredJson, StoredReasons } from '../../../db/stored-json';
import type { Database } from '../../../db/types';
import { csvRow, UTF8_BOM } from '../../../lib/csv';
import { instrumentCells, instrumentLayout } from './instrument-columns';
import * as queries from './queries';

/** Submissions per page: bounded memory whatever the institution's size. */
const PAGE = 500;

/**
 * A submission sent through a shared link by someone who has not proven the address may come from
 * anyone: its name is only claimed, so it never stands in the Student Name column, and Verified
 * says which rows are the student's own (design section 8).
 */
const EXPORT_FIXED_COLUMNS = [
  'Date',
  'Student Name',
  'Claimed Name (unverified)',
  'Email',
  'Verified',
  'Template',
  'Tier',
  'Reasons',
] as const;

function reasonsText(json: string): string {
  return (parseStoredJson(StoredReasons, json) ?? []).join('; ');
}

/**
 * The institution's submissions as CSV, oldest first, one row per submission and one column per
 * question ever answered, then each instrument's total, band and item answers. Questions are matched by their text, which answers keep as a snapshot,
 * so answers to deleted questions still land in their column.
 */
export async function* exportSubmissionsCsv(options: {
  db: Kysely<Database>;
  institutionId: number;
}): AsyncGenerator<string> {
  const { db, institutionId } = options;
  const questions = await queries.answeredQuestionTexts(db, institutionId);
  const column = new Map(questions.map((text, index) => [text, index]));
  const instruments = await instrumentLayout(db, institutionId);
  const noInstruments = new Array<string>(instruments.headers.length).fill('');
  yield UTF8_BOM + csvRow([...EXPORT_FIXED_COLUMNS, ...questions, ...instruments.headers]);

  let after: queries.SubmissionCursor | null = null;
  for (;;) {
    const page = await queries.submissionsPage(db, institutionId, after, PAGE);
    const last = page[page.length - 1];
    if (!last) return;
    after = { createdAt: last.created_at, id: last.id };
    const values = new Map<number, string[]>();
    for (const answer of await queries.answersOf(
      db,
      page.map((submission) => submission.id),
    )) {
      const index = column.get(answer.question_text);
      if (index === undefined) continue;
      const row = values.get(answer.submission_id) ?? new Array<string>(questions.length).fill('');
      row[index] = answer.value;
      values.set(answer.submission_id, row);
    }
    const instrumentValues = await instrumentCells(
      db,
      instruments,
      page.map((submission) => submission.id),
    );
    yield page
      .map((submission) =>
        csvRow([
          new Date(submission.created_at).toISOString(),
          submission.verified_at === null ? '' : submission.student_name,
          submission.verified_at === null ? submission.student_name : '',
          submission.school_email,
          submission.verified_at === null ? 'no' : 'yes',
          submission.template_id,
          submission.tier,
          reasonsText(submission.reasons),
          ...(values.get(submission.id) ?? new Array<string>(questions.length).fill('')),
          ...(instrumentValues.get(submission.id) ?? noInstruments),
        ]),
      )
      .join('');
  }
}

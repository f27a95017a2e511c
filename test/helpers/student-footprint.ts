import type { Kysely } from 'kysely';
import type { SurveyEntry, SurveyQuestion } from '../../src/common/schemas/surveys';
import type { Database } from '../../src/server/db/types';
import { HOUR } from '../../src/server/lib/time';
import type { TestAgent } from './app';

/**
 * A student who has left a trace in every place the institution keeps one, through the product's
 * own routes where a route makes it: check-ins (one urgent, which opens a case), a counsellor's
 * note on that case, a draft, a roster row and a campaign invitation, a code and a proven
 * address, and a mail waiting for them.
 */

function answersFor(questions: SurveyEntry[], text: string): Record<string, string> {
  return Object.fromEntries(
    questions
      .filter((entry): entry is SurveyQuestion => 'question_type' in entry)
      .map((question) => {
        if (question.question_type === 'text') return [String(question.id), text];
        if (question.category === 'safety') return [String(question.id), '1'];
        return [String(question.id), '2'];
      }),
  );
}

export const URGENT_TEXT = 'I want to kill myself';
export const CASE_NOTE = 'Phoned the student; they are safe with family tonight.';

export async function leaveFootprint(options: {
  db: Kysely<Database>;
  institutionId: number;
  student: TestAgent;
  email: string;
  admin: TestAgent;
  /** Words of the calm check-in, to find it in an export. */
  calmText?: string;
}) {
  const { db, institutionId, student, email, admin } = options;
  const survey = await student.get<{ questions: SurveyEntry[]; template_id: number }>(
    '/api/get-user-survey-questions/',
  );
  if (survey.status !== 200) throw new Error(`survey questions: ${survey.status} ${survey.text}`);
  const templateId = survey.body.template_id;
  const submit = (text: string) =>
    student.post('/api/survey/', {
      survey_template_id: templateId,
      answers: answersFor(survey.body.questions, text),
    });
  const calm = await submit(options.calmText ?? 'A steady week, thanks.');
  if (calm.status !== 200) throw new Error(`calm check-in: ${calm.status} ${calm.text}`);
  const urgent = await submit(URGENT_TEXT);
  if (urgent.status !== 200) throw new Error(`urgent check-in: ${urgent.status} ${urgent.text}`);

  const opened = await db
    .selectFrom('cases')
    .innerJoin('respondents', 'respondents.id', 'cases.respondent_id')
    .select('cases.id')
    .where('respondents.email', '=', email)
    .executeTakeFirstOrThrow();
  const note = await admin.post(`/api/cases/${opened.id}/notes/`, { text: CASE_NOTE });
  if (note.status !== 200) throw new Error(`case note: ${note.status} ${note.text}`);

  const draft = await student.post('/api/autosave/', {
    template_id: templateId,
    answers: {},
  });
  if (draft.status !== 200) throw new Error(`draft: ${draft.status} ${draft.text}`);

  const roster = await admin.request({
    method: 'POST',
    url: '/api/roster/',
    headers: { 'content-type': 'text/csv' },
    payload: `name,email,group\r\nSam North,${email},Year 2\r\n`,
  });
  if (roster.status !== 200) throw new Error(`roster: ${roster.status} ${roster.text}`);
  const rosterRow = await db
    .selectFrom('roster_students')
    .select('id')
    .where('institution_id', '=', institutionId)
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const now = Date.now();
  const campaign = await db
    .insertInto('campaigns')
    .values({
      institution_id: institutionId,
      template_id: templateId,
      groups: '["Year 2"]',
      all_students: 0,
      no_group: 0,
      send_now: 1,
      anonymous: 0,
      day: 'Monday',
      minute_of_day: 540,
      time_zone: 'UTC',
      recurring: 0,
      reminder_after_days: 3,
      status: 'active',
      next_run_at: null,
      round_started_at: now,
      round_expires_at: now + 168 * HOUR,
      created_by: null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('campaign_invitations')
    .values({
      campaign_id: campaign.id,
      round: 1,
      student_id: rosterRow.id,
      token_hash: `token-of-${email}`,
      invited_at: now,
      expires_at: now + 168 * HOUR,
      answered_at: null,
      last_reminded_at: null,
    })
    .execute();

  await db
    .insertInto('verification_codes')
    .values({
      email,
      visitor_hash: 'visitor',
      code_hash: 'code',
      expires_at: now + HOUR,
      used_at: null,
      created_at: now,
    })
    .execute();
  await db.insertInto('address_proofs').values({ visitor_hash: 'visitor', email, proven_at: now }).execute();
  await db
    .insertInto('mail_outbox')
    .values({
      to_address: email,
      subject: 'Your check-in',
      body: 'Hello',
      status: 'pending',
      next_attempt_at: now + HOUR,
      lease_token: null,
      lease_until: null,
      sent_at: null,
      last_error: null,
      created_at: now,
    })
    .execute();
  return { templateId, caseId: opened.id, rosterId: rosterRow.id, campaignId: campaign.id };
}

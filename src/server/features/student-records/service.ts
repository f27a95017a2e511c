import { allItems, INSTRUMENTS } from '../../../common/instruments';
import type { InstrumentId } from '../../../common/instruments/types';
import type { StudentRecords } from '../../../common/schemas/records';
import type { Executor } from '../../db/executor';
import { recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { requestsOf } from '../records-requests';
import * as queries from './queries';

const iso = (at: number | string) => new Date(Number(at)).toISOString();
const isoOrNull = (at: number | string | null) => (at === null ? null : iso(at));

function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

/** The student's answers to one instrument, each item in the publisher's wording and scale. */
function instrumentAnswers(row: {
  instrument_id: InstrumentId;
  scored_as: InstrumentId;
  item_answers: string;
}) {
  const instrument = INSTRUMENTS[row.scored_as] ?? INSTRUMENTS[row.instrument_id];
  const given = (parsed(row.item_answers) ?? {}) as Record<string, number | string>;
  const items = allItems(instrument)
    .filter((item) => item.id in given)
    .map((item) => {
      const value = given[item.id];
      const option = instrument.scale.find((choice) => choice.value === value);
      return { item: item.text, answer: option?.label ?? String(value) };
    });
  return { instrument: instrument.name, items };
}

/**
 * Everything held about the signed-in student: their account, roster entry, check-ins with
 * their answers, drafts, invitations and records requests. Screening scores and bands are for
 * staff (design section 13) and case notes are treatment records kept apart: neither is read.
 * Each download is recorded in the institution's audit log.
 */
export async function studentRecords(options: {
  db: Executor;
  userId: number;
  address: string | null;
  at: number;
}): Promise<{ success: true; records: StudentRecords }> {
  const { db, userId, at } = options;
  const account = await queries.studentAccount(db, userId);
  if (!account || account.institution_id === null)
    throw new AppError('FORBIDDEN', 'Only a student can download their own records');
  const institutionId = account.institution_id;
  const email = account.email.toLowerCase();

  const submissions = await queries.submissionsOf(db, institutionId, userId, email);
  const ids = submissions.map((row) => row.id);
  const answers = await queries.answersOf(db, ids);
  const instruments = await queries.instrumentAnswersOf(db, ids);
  const roster = await queries.rosterEntry(db, institutionId, email);
  const invitations = roster ? await queries.invitationsOf(db, roster.id) : [];
  const drafts = await queries.draftsOf(db, userId);
  const requests = await requestsOf(db, institutionId, email);

  await recordAudit(
    db,
    { institutionId, userId, email, address: options.address },
    {
      action: 'records.download',
      subject: { type: 'user', id: userId },
    },
  );

  return {
    success: true,
    records: {
      generated_at: iso(at),
      student: {
        name: account.name,
        email: account.email,
        institution: account.institution,
        account_created_at: iso(account.created_at),
      },
      roster: roster
        ? {
            name: roster.name,
            group: roster.group_name,
            added_at: iso(roster.created_at),
            last_invited_at: isoOrNull(roster.last_invited_at),
            left_at: isoOrNull(roster.left_at),
          }
        : null,
      check_ins: submissions.map((submission) => ({
        submitted_at: iso(submission.created_at),
        verified: submission.verified_at !== null,
        answers: answers
          .filter((answer) => answer.submission_id === submission.id)
          .map((answer) => ({
            question: answer.question_text,
            category: answer.category,
            type: answer.question_type,
            value: answer.value,
          })),
        screening_answers: instruments
          .filter((result) => result.submission_id === submission.id)
          .map(instrumentAnswers),
      })),
      drafts: drafts.map((draft) => ({
        survey_id: draft.template_id,
        updated_at: iso(draft.updated_at),
        content: parsed(draft.data),
      })),
      invitations: invitations.map((invitation) => ({
        campaign_id: invitation.campaign_id,
        round: invitation.round,
        invited_at: iso(invitation.invited_at),
        expires_at: iso(invitation.expires_at),
        answered_at: isoOrNull(invitation.answered_at),
        reminders: invitation.reminders,
      })),
      records_requests: requests.map((request) => ({
        opened_at: iso(request.opened_at),
        due_at: iso(request.due_at),
        fulfilled_at: isoOrNull(request.fulfilled_at),
      })),
    },
  };
}

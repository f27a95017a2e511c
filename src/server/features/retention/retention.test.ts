/**
 * A copy of the database taken later holds no credential that still works and as little else as
 * it can: delivered mail keeps no words, and old mail rows, codes and proofs are deleted.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../../../../test/helpers/databases';
import { makeInstitution } from '../../../../test/helpers/factories';
import { loadConfig } from '../../config';
import { enqueueMail } from '../../lib/mail/outbox';
import { createMailTransport } from '../../lib/mail/transport';
import { deliverDueMail } from '../../lib/mail/worker';
import { DAY, HOUR, MINUTE } from '../../lib/time';
import { deleteExpiredRecords } from './retention';

const retention = loadConfig({}).retention;
const logOnly = () => createMailTransport({ ...loadConfig({}).mail, smtpUrl: null }, () => undefined);

describe.each(TEST_DIALECTS)('what the database keeps on %s', (dialect) => {
  let test: TestDatabase;

  beforeEach(async () => {
    test = await createTestDatabase(dialect);
  });
  afterEach(async () => test.drop());

  it('drops a mail’s words in the write that records it sent, and keeps who, when and its id', async () => {
    const db = test.db.kysely;
    const at = Date.now();
    const id = await enqueueMail(
      db,
      {
        to: 'admin@north.edu',
        subject: 'You are invited',
        text: 'Accept: https://x.test/staff/invite/SECRET/',
      },
      at,
    );
    const transport = logOnly();
    expect(await deliverDueMail({ db, transport, at: () => at })).toBe(1);
    transport.close();
    const row = await db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ to_address: 'admin@north.edu', status: 'sent', subject: '', body: '' });
    expect(Number(row.sent_at)).toBe(at);
    expect(Number(row.created_at)).toBe(at);
  });

  it('deletes old delivered mail, expired or used codes and spent proofs, and nothing younger', async () => {
    const db = test.db.kysely;
    const at = Date.now();
    const old = at - retention.outboxMs - MINUTE;
    const young = at - retention.outboxMs + MINUTE;
    const mail = (to: string, status: 'sent' | 'failed' | 'pending', time: number) =>
      db
        .insertInto('mail_outbox')
        .values({
          to_address: to,
          subject: '',
          body: '',
          status,
          next_attempt_at: time,
          created_at: time,
          sent_at: status === 'sent' ? time : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    await mail('old-sent@north.edu', 'sent', old);
    await mail('old-failed@north.edu', 'failed', old);
    await mail('old-pending@north.edu', 'pending', old);
    await mail('young-sent@north.edu', 'sent', young);
    // A mail a case caused is that case's record of its alert: it stays.
    const institution = await makeInstitution(db);
    const respondent = await db
      .insertInto('respondents')
      .values({
        institution_id: institution.id,
        email: 's@north.edu',
        name: 'S',
        user_id: null,
        created_at: old,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const caseRow = await db
      .insertInto('cases')
      .values({
        institution_id: institution.id,
        respondent_id: respondent.id,
        tier: 'urgent',
        status: 'new',
        first_submitted_at: old,
        opened_at: old,
        acknowledge_by: old,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const alert = await mail('duty@north.edu', 'sent', old);
    await db
      .insertInto('case_mails')
      .values({ case_id: caseRow.id, mail_id: alert.id, kind: 'alert' })
      .execute();

    const code = (email: string, expiresAt: number, usedAt: number | null) =>
      db
        .insertInto('verification_codes')
        .values({
          email,
          visitor_hash: 'v',
          code_hash: 'h',
          expires_at: expiresAt,
          used_at: usedAt,
          created_at: expiresAt - 10 * MINUTE,
        })
        .execute();
    await code('expired-long-ago@north.edu', at - retention.expiredCodesMs - MINUTE, null);
    await code('used-long-ago@north.edu', at + MINUTE, at - retention.expiredCodesMs - MINUTE);
    await code('expired-lately@north.edu', at - HOUR, null);
    await code('live@north.edu', at + 5 * MINUTE, null);
    const proof = (email: string, provenAt: number) =>
      db.insertInto('address_proofs').values({ visitor_hash: 'v', email, proven_at: provenAt }).execute();
    await proof('spent@north.edu', at - retention.expiredCodesMs - DAY);
    await proof('fresh@north.edu', at - HOUR);

    expect(await deleteExpiredRecords(db, retention, at)).toEqual({ mails: 2, codes: 2, proofs: 1 });
    const kept = await db.selectFrom('mail_outbox').select('to_address').orderBy('id').execute();
    expect(kept.map((row) => row.to_address)).toEqual([
      'old-pending@north.edu',
      'young-sent@north.edu',
      'duty@north.edu',
    ]);
    const codes = await db.selectFrom('verification_codes').select('email').orderBy('id').execute();
    expect(codes.map((row) => row.email)).toEqual(['expired-lately@north.edu', 'live@north.edu']);
    const proofs = await db.selectFrom('address_proofs').select('email').execute();
    expect(proofs.map((row) => row.email)).toEqual(['fresh@north.edu']);
    expect(await db.selectFrom('case_mails').select('mail_id').execute()).toHaveLength(1);
  });
});

/**
 * The daily retention purge as real server processes: two instances on one PostgreSQL database,
 * both polling the jobs, run a due purge once between them. It deletes the expired check-in,
 * keeps the recent one, records one audit entry, and leaves the rollups equal to a recount.
 */
import { expect, it } from 'vitest';
import { rebuildDashboardRollups } from '../../src/server/features/dashboard';
import { createInstitution } from '../../src/server/features/institutions';
import { monthsBefore, purgeJobKind } from '../../src/server/features/retention';
import { scheduleJob } from '../../src/server/lib/jobs';
import { activeQuestions, addSubmission, rollupSnapshot } from '../helpers/dashboard-data';
import { describeOnPostgres } from '../helpers/postgres-only';
import { freshProcessStore, waitUntil } from '../helpers/process-store';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process';

/** Only stops a hung run; nothing is timed. */
const TEST_LIMIT_MS = 600_000;

describeOnPostgres('the daily purge across two instances', () => {
  it(
    'runs once, removes only what has expired, and leaves the rollups equal to a recount',
    async () => {
      const store = await freshProcessStore('postgres', 'retention');
      const servers: ServerProcess[] = [];
      try {
        const db = store.db.kysely;
        const institution = await createInstitution(db, { name: 'Purge University', domains: ['purge.edu'] });
        const q = await activeQuestions(db, institution.id);
        const submit = (email: string, at: number) =>
          addSubmission(db, {
            institutionId: institution.id,
            email,
            name: email,
            at,
            tier: 'none',
            templateId: q.templateId,
            answers: [{ question: q.sleep, value: 3 }],
          });
        const now = Date.now();
        const expired = await submit('old@purge.edu', monthsBefore(now, 30));
        const recent = await submit('new@purge.edu', monthsBefore(now, 2));
        // Due already: the instances find it at their first poll, together.
        await scheduleJob(db, purgeJobKind, {
          key: 'retention-purge:due-now',
          runAt: now,
          payload: { runAt: now },
        });

        servers.push(...(await Promise.all([startServer(store.env), startServer(store.env)])));

        const job = () =>
          db
            .selectFrom('jobs')
            .select(['status', 'attempts'])
            .where('key', '=', 'retention-purge:due-now')
            .executeTakeFirstOrThrow();
        await waitUntil(async () => (await job()).status === 'done', 'the purge to finish', 120_000);
        expect(await job()).toEqual({ status: 'done', attempts: 1 });

        const purges = await db
          .selectFrom('audit_log')
          .select('detail')
          .where('institution_id', '=', institution.id)
          .where('action', '=', 'retention.purge')
          .execute();
        expect(purges).toHaveLength(1);
        expect(JSON.parse(purges[0]?.detail ?? '{}')).toMatchObject({ answers: 1 });
        const left = (await db.selectFrom('submissions').select('id').execute()).map((row) => row.id);
        expect(left).toEqual([recent]);
        expect(left).not.toContain(expired);

        const afterPurge = await rollupSnapshot(db, institution.id);
        expect(afterPurge.totals?.responses).toBe(1);
        await rebuildDashboardRollups(db, institution.id);
        expect(await rollupSnapshot(db, institution.id)).toEqual(afterPurge);
      } finally {
        await Promise.all(servers.map((server) => stopServer(server)));
        await store.drop();
      }
    },
    TEST_LIMIT_MS,
  );
});

import { RETENTION_DEFAULTS } from '../../../common/schemas/retention';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/errors';

/** An institution's retention periods, in months (design section 14). */
export interface RetentionPolicy {
  answersMonths: number;
  closedCasesMonths: number;
  auditLogMonths: number;
}

/** A stored period that no longer reads (a manual edit) keeps the default rather than deleting early. */
const monthsOr = (value: number, fallback: number) =>
  Number.isInteger(value) && value > 0 ? value : fallback;

export async function readRetentionPolicy(db: Executor, institutionId: number): Promise<RetentionPolicy> {
  const row = await db
    .selectFrom('institutions')
    .select(['answers_retention_months', 'closed_cases_retention_months', 'audit_retention_months'])
    .where('id', '=', institutionId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', 'Institution not found');
  return {
    answersMonths: monthsOr(row.answers_retention_months, RETENTION_DEFAULTS.answers_months),
    closedCasesMonths: monthsOr(row.closed_cases_retention_months, RETENTION_DEFAULTS.closed_cases_months),
    auditLogMonths: monthsOr(row.audit_retention_months, RETENTION_DEFAULTS.audit_log_months),
  };
}

/**
 * The moment `months` calendar months before `at` (UTC): what is older goes. A day that the
 * earlier month lacks (31 August less six months) falls to that month's last day, never into
 * the next month, so nothing goes a day early.
 */
export function monthsBefore(at: number, months: number): number {
  const date = new Date(at);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

export interface RetentionCutoffs {
  answers: number;
  closedCases: number;
  auditLog: number;
}

export function cutoffsAt(policy: RetentionPolicy, at: number): RetentionCutoffs {
  return {
    answers: monthsBefore(at, policy.answersMonths),
    closedCases: monthsBefore(at, policy.closedCasesMonths),
    auditLog: monthsBefore(at, policy.auditLogMonths),
  };
}

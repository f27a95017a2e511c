import type { CaseStatus } from '../../../common/schemas/cases';
import type { FollowUpFigures } from '../../../common/schemas/dashboard';
import type { Unsuppressed } from '../../../common/small-groups';
import type { Executor } from '../../db/executor';
import * as queries from './queries';

/** What the dashboard shows of case work: read inside the dashboard's own snapshot. */

export interface CaseLink {
  id: number;
  status: CaseStatus;
}

/** Each student's case to link to from the flagged table: the open one, else the latest. */
export async function caseLinksOf(
  db: Executor,
  institutionId: number,
  respondentIds: number[],
): Promise<Map<number, CaseLink>> {
  const links = new Map<number, CaseLink>();
  const unique = [...new Set(respondentIds)];
  for (const row of await queries.casesOfRespondents(db, institutionId, unique)) {
    if (!links.has(row.respondent_id)) links.set(row.respondent_id, { id: row.id, status: row.status });
  }
  return links;
}

/** The value below which `share` of the sorted values fall (nearest rank); null without any. */
function percentile(sorted: readonly number[], share: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(share * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

function delays(values: number[]) {
  const sorted = values.filter((value) => value >= 0).sort((a, b) => a - b);
  return { count: sorted.length, median_ms: percentile(sorted, 0.5), p90_ms: percentile(sorted, 0.9) };
}

/**
 * Open and overdue cases, and how long flags took to reach someone: from the submission to the
 * first alert mail actually sent, and to acknowledgement (over the latest 1,000 cases of each).
 */
export async function followUpFigures(
  db: Executor,
  institutionId: number,
  at: number,
): Promise<Unsuppressed<FollowUpFigures>> {
  const figures = await queries.caseFigures(db, institutionId, at);
  return {
    open_cases: figures.open,
    overdue_cases: figures.overdue,
    time_to_alert_sent: delays(figures.alertDelays),
    time_to_acknowledge: delays(figures.acknowledgementDelays),
  };
}

import type { Kysely } from 'kysely';
import { RISK_TIERS } from '../../../common/risk/tiers';
import type { AnonymousResultsResponse } from '../../../common/schemas/campaigns';
import { cellsToHide, suppressed } from '../../../common/small-groups';
import type { Database } from '../../db/types';
import { AppError } from '../../lib/errors';
import { smallGroupThreshold } from '../dashboard';
import { anonymousInstrumentBands } from './instrument-results';
import * as queries from './queries';
import { campaignView } from './service';

export const NOT_ANONYMOUS =
  'Only an anonymous campaign has results of its own: the answers of this one are on the dashboard.';

/**
 * An anonymous campaign's figures, hidden under the small-group rule for every role: its answers
 * name no one, so no role may see one of them alone. Tier counts are a line whose total (the
 * number answered) is shown; the means of the 1-5 questions are over every answer, shown only
 * when there are enough of them.
 */
export async function anonymousResults(options: {
  db: Kysely<Database>;
  institutionId: number;
  campaignId: number;
}): Promise<AnonymousResultsResponse> {
  const { db, institutionId, campaignId } = options;
  const campaign = await queries.findCampaign(db, campaignId, institutionId);
  if (!campaign) throw new AppError('NOT_FOUND', 'Campaign not found');
  if (campaign.anonymous !== 1) throw new AppError('NOT_FOUND', NOT_ANONYMOUS);
  const { template_name, groups, all_students, no_group, status, anonymous } = await campaignView(
    db,
    institutionId,
    campaignId,
  );
  const threshold = await smallGroupThreshold(db, institutionId);
  const tierRows = await db
    .selectFrom('anonymous_submissions')
    .select((eb) => ['tier', eb.fn.countAll<number | string>().as('n')])
    .where('campaign_id', '=', campaignId)
    .groupBy('tier')
    .execute();
  const byTier = Object.fromEntries(RISK_TIERS.map((tier) => [tier, 0])) as Record<
    (typeof RISK_TIERS)[number],
    number
  >;
  for (const row of tierRows) byTier[row.tier] = Number(row.n);
  const answered = RISK_TIERS.reduce((sum, tier) => sum + byTier[tier], 0);
  const hidden = cellsToHide(
    {
      cells: {
        answered: { students: Math.max(answered, threshold) },
        ...Object.fromEntries(RISK_TIERS.map((tier) => [tier, { students: byTier[tier] }])),
      },
      lines: [{ total: 'answered', parts: [...RISK_TIERS] }],
    },
    threshold,
  );
  const shown = (tier: (typeof RISK_TIERS)[number]) =>
    hidden.has(tier) ? suppressed(threshold) : byTier[tier];
  const means = await db
    .selectFrom('anonymous_answers as a')
    .innerJoin('anonymous_submissions as s', 's.id', 'a.submission_id')
    .select((eb) => [
      'a.question_text',
      eb.fn.min('a.id').as('first'),
      eb.fn.avg<number | string>(eb.cast('a.value', 'real')).as('mean'),
    ])
    .where('s.campaign_id', '=', campaignId)
    .where('a.question_type', '=', 'likert')
    .groupBy('a.question_text')
    .orderBy('first')
    .execute();
  return {
    success: true,
    campaign: { template_name, groups, all_students, no_group, status, anonymous },
    threshold,
    answered,
    tiers: {
      none: shown('none'),
      monitor: shown('monitor'),
      elevated: shown('elevated'),
      urgent: shown('urgent'),
    },
    questions: means.map((row) => ({
      text: row.question_text,
      mean:
        answered < threshold
          ? suppressed(threshold)
          : row.mean === null
            ? null
            : Math.round(Number(row.mean) * 100) / 100,
    })),
    instruments: await anonymousInstrumentBands(db, campaignId, threshold),
  };
}

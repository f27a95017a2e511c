import type { RiskTier } from '../../../common/risk/tiers';
import { CATEGORY_NAMES, QuestionCategory } from '../../../common/schemas/templates';

/** A tier as staff read it beside the reason that raised it. */
export const TIER_LABELS: Record<RiskTier, string> = {
  urgent: 'Urgent',
  elevated: 'Elevated',
  monitor: 'Monitor',
  none: 'No concern',
};

/** A span of time as people say it: "0.4 s", "40 s", "12 min", "3.5 h", "2.1 days". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '–';
  const seconds = ms / 1000;
  if (seconds < 10) return `${Math.round(seconds * 10) / 10} s`;
  if (seconds < 90) return `${Math.round(seconds)} s`;
  const minutes = seconds / 60;
  if (minutes < 90) return `${Math.round(minutes)} min`;
  const hours = minutes / 60;
  if (hours < 36) return `${Math.round(hours * 10) / 10} h`;
  return `${Math.round((hours / 24) * 10) / 10} days`;
}

/** A category as the screening's reasons name it, so a mean and the reason about it agree. */
export function categoryLabel(category: string): string {
  const known = QuestionCategory.safeParse(category);
  return known.success ? CATEGORY_NAMES[known.data] : category;
}

/** A change from the baseline, signed; on the 1 (best) to 5 (worst) scale, up is worse. */
export function formatChange(change: number | undefined): string {
  if (change === undefined) return '';
  if (change === 0) return '±0';
  return `${change > 0 ? '+' : '−'}${Math.abs(change).toFixed(1)}`;
}

import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { RiskTier } from '../../../common/risk/tiers';
import type { CaseOutcome, CaseStatus } from '../../../common/schemas/cases';
import { QuestionCategory } from '../../../common/schemas/templates';
import { i18n } from '../../app/i18n';

/**
 * The words staff read for the codes the server and the web share (common/schemas): kept here
 * rather than beside the codes, so the server's copy of them carries no translations.
 */
export const CASE_STATUS_LABELS: Record<CaseStatus, MessageDescriptor> = {
  // Apart from other uses of "New": other languages agree the word with what it describes.
  new: msg({ message: 'New', context: 'case state' }),
  acknowledged: msg`Acknowledged`,
  in_progress: msg`In progress`,
  resolved: msg`Resolved`,
};

export const CASE_OUTCOME_LABELS: Record<CaseOutcome, MessageDescriptor> = {
  connected_to_counselling: msg`Connected to counselling`,
  referred_elsewhere: msg`Referred elsewhere`,
  emergency_services: msg`Emergency services`,
  no_concern_after_contact: msg`No concern after contact`,
  unable_to_reach: msg`Unable to reach`,
  other: msg`Other`,
};

const TIER_NAMES: Record<RiskTier, MessageDescriptor> = {
  urgent: msg`Urgent`,
  elevated: msg`Elevated`,
  monitor: msg`Monitor`,
  none: msg`No concern`,
};

/**
 * A tier as staff read it beside the reason that raised it, in the page's language: each label
 * is worded when read, so a screen drawn after a change of language reads the new one.
 */
export const TIER_LABELS: Readonly<Record<RiskTier, string>> = {
  get urgent() {
    return i18n._(TIER_NAMES.urgent);
  },
  get elevated() {
    return i18n._(TIER_NAMES.elevated);
  },
  get monitor() {
    return i18n._(TIER_NAMES.monitor);
  },
  get none() {
    return i18n._(TIER_NAMES.none);
  },
};

/**
 * Each category's name beside its mean, as the screening's reasons name it (common/schemas/
 * templates.ts, CATEGORY_NAMES), so a mean and the reason about it agree.
 */
const CATEGORY_NAMES: Record<QuestionCategory, MessageDescriptor> = {
  general: msg`General`,
  sleep: msg`Sleep`,
  stress: msg`Stress`,
  support: msg`Support`,
  safety: msg`Safety`,
};

/**
 * How a set of category means reads: the scale, which way is worse, and the self-harm questions'
 * own words (common/schemas/templates.ts, CATEGORY_MEANS_LEGEND).
 */
export const CATEGORY_MEANS_LEGEND = msg`1 = Excellent … 5 = Very Poor; higher is worse (self-harm questions: 1 = Never … 5 = Almost always)`;

/** A figure with one decimal, as the page's language writes it. */
export function formatOneDecimal(value: number): string {
  return i18n.number(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** A rounded figure with at most one decimal, as the page's language writes it. */
function formatRounded(value: number): string {
  return i18n.number(value, { maximumFractionDigits: 1, useGrouping: false });
}

/** A span of time as people say it: "0.4 s", "40 s", "12 min", "3.5 h", "2.1 days". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '–';
  const seconds = ms / 1000;
  if (seconds < 90) {
    const count = formatRounded(seconds < 10 ? Math.round(seconds * 10) / 10 : Math.round(seconds));
    return i18n._(msg`${count} s`);
  }
  const minutes = seconds / 60;
  if (minutes < 90) {
    const count = formatRounded(Math.round(minutes));
    return i18n._(msg`${count} min`);
  }
  const hours = minutes / 60;
  if (hours < 36) {
    const count = formatRounded(Math.round(hours * 10) / 10);
    return i18n._(msg`${count} h`);
  }
  const count = formatRounded(Math.round((hours / 24) * 10) / 10);
  return i18n._(msg`${count} days`);
}

/** A category as the screening's reasons name it, so a mean and the reason about it agree. */
export function categoryLabel(category: string): string {
  const known = QuestionCategory.safeParse(category);
  return known.success ? i18n._(CATEGORY_NAMES[known.data]) : category;
}

/** A change from the baseline, signed; on the 1 (best) to 5 (worst) scale, up is worse. */
export function formatChange(change: number | undefined): string {
  if (change === undefined) return '';
  if (change === 0) return '±0';
  return `${change > 0 ? '+' : '−'}${formatOneDecimal(Math.abs(change))}`;
}

import { msg } from '@lingui/core/macro';
import { isSuppressed, type Shown, type Suppressed } from '../../../common/small-groups';
import { i18n } from '../../app/i18n';

/**
 * How a hidden figure reads on screen, in the page's language (common/small-groups.ts words it
 * for exports).
 */
export function fewerThanText(value: Suppressed): string {
  const threshold = value.fewer_than;
  return i18n._(msg`Fewer than ${threshold}`);
}

/** The sentence said where figures are hidden (common/small-groups.ts, smallGroupRule). */
export function smallGroupRuleText(threshold: number): string {
  return i18n._(
    msg`To protect students’ privacy, groups of fewer than ${threshold} students are shown as “Fewer than ${threshold}”, with some other figures hidden so they cannot be worked out. Staff who may see names (admins and counsellors) see every figure.`,
  );
}

/** A figure as text: "Fewer than N" in place of a suppressed one. */
export function shownText<T>(value: Shown<T>, format: (value: T) => string = String): string {
  return isSuppressed(value) ? fewerThanText(value) : format(value);
}

/** Whether any of the figures (the dashboard's, an instrument month's) is suppressed, so the screen says why. */
export function anySuppressed(data: object): boolean {
  return containsSuppressed(data);
}

function containsSuppressed(value: unknown): boolean {
  if (isSuppressed(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(containsSuppressed);
}

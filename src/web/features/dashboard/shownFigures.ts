import { fewerThanLabel, isSuppressed, type Shown } from '../../../common/small-groups';

/** A figure as text: "Fewer than N" in place of a suppressed one. */
export function shownText<T>(value: Shown<T>, format: (value: T) => string = String): string {
  return isSuppressed(value) ? fewerThanLabel(value) : format(value);
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

import { useLingui } from '@lingui/react/macro';
import { formatZonedDateTime } from '../../../common/zoned-format';
import { useCurrentUser } from '../auth/useCurrentUser';

/**
 * The institution's time zone, in which staff read every date and time (design section 9: its
 * deadlines and rounds run on its clock), so that a reader whose browser is set to another zone
 * never takes a deadline for their own local time. UTC until the signed-in user is known.
 */
export function useInstitutionTimeZone(): string {
  const { data: user } = useCurrentUser();
  return user?.time_zone ?? 'UTC';
}

/** Formats instants as staff read them: on the institution's clock, naming the zone, in the page's language. */
export function useZonedFormat(): (at: string | number | null | undefined) => string {
  const timeZone = useInstitutionTimeZone();
  const { i18n } = useLingui();
  const language = i18n.locale;
  return (at) => formatZonedDateTime(at, timeZone, language || undefined);
}

/** An instant on the institution's clock, naming the zone ("Tue 3 Nov 2026, 14:05 (America/New_York)"). */
export function ZonedTime({ at, fallback = '' }: { at: string | null | undefined; fallback?: string }) {
  const format = useZonedFormat();
  const text = format(at);
  if (!text || !at) return fallback;
  return <time dateTime={at}>{text}</time>;
}

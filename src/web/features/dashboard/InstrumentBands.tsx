import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { getInstrumentBands } from '../../../common/endpoints/dashboard';
import { INSTRUMENTS, SCREENING_DISCLAIMER } from '../../../common/instruments';
import type { InstrumentBandMonths } from '../../../common/schemas/dashboard';
import { isSuppressed, type Suppressed } from '../../../common/small-groups';
import { api } from '../../api';
import { i18n } from '../../app/i18n';
import { tableClassName } from '../../ui/Table';
import { formatOneDecimal } from '../cases/format';
import styles from './Dashboard.module.css';
import { anySuppressed, shownText, smallGroupRuleText } from './shownFigures';

export const INSTRUMENT_BANDS_QUERY_KEY = ['dashboard', 'instruments'] as const;

/** Up to nine columns of numbers: one card per month on a tablet or phone. */
const INSTRUMENT_TABLE = tableClassName(
  { cardsBelow: '48rem', labels: 'inline' },
  `${styles.table} ${styles.instrumentTable}`,
);

type InstrumentMonths = InstrumentBandMonths['instruments'][number];
type MonthFigures = InstrumentMonths['months'][number];

function fetchInstrumentBands() {
  return api.call(getInstrumentBands);
}

/** The bands met in any month, in the publisher's order, anything unnamed after them. */
function bandColumns(instrument: InstrumentMonths): string[] {
  const published = INSTRUMENTS[instrument.instrument_id].bands.map((band) => band.label);
  const met = new Set(instrument.months.flatMap((month) => month.bands.map((band) => band.band)));
  const rank = (band: string) => (published.includes(band) ? published.indexOf(band) : published.length);
  return [...met].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** "2026-11" as people read it in the page's language: "November 2026". */
function monthName(month: string): string {
  const [year, number] = month.split('-').map(Number);
  if (!year || !number) return month;
  return new Date(Date.UTC(year, number - 1, 1)).toLocaleDateString(i18n.locale, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** The mean's change in words: "up 1.5 from October 2026", "no change", or a dash for the first. */
function changeText(change: Exclude<MonthFigures['mean_change'], Suppressed>): string {
  if (!change) return '–';
  const from = monthName(change.from_month);
  if (change.change === 0) return i18n._(msg`no change from ${from}`);
  const amount = formatOneDecimal(Math.abs(change.change));
  return change.change > 0
    ? i18n._(msg`up ${amount} from ${from}`)
    : i18n._(msg`down ${amount} from ${from}`);
}

/**
 * Per validated instrument, month by month: how many students fell in each band, and the mean
 * total with its change from the month before. Numbers only, for every staff role. Nothing
 * shows while no instrument has been answered.
 */
export function InstrumentBands() {
  const headingId = useId();
  const query = useQuery({ queryKey: INSTRUMENT_BANDS_QUERY_KEY, queryFn: fetchInstrumentBands });
  const instruments = query.data?.instruments ?? [];
  if (instruments.length === 0) return null;
  const hidden = instruments.flatMap((instrument) => instrument.months).find(anySuppressed);
  const threshold =
    hidden && [hidden.students, ...hidden.bands.map((band) => band.students)].find(isSuppressed);
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.panelTitle}>
        <Trans>Validated Instruments by Month</Trans>
      </h2>
      <p className={styles.tableNote}>
        <Trans>
          Students in each band, and the mean total with its change from the month before; a student who
          answered more than once in a month counts once ({SCREENING_DISCLAIMER}).
        </Trans>
      </p>
      {threshold && <p className={styles.tableNote}>{smallGroupRuleText(threshold.fewer_than)}</p>}
      {instruments.map((instrument) => (
        <InstrumentTable key={instrument.instrument_id} instrument={instrument} />
      ))}
    </section>
  );
}

function InstrumentTable({ instrument }: { instrument: InstrumentMonths }) {
  const { t } = useLingui();
  const bands = bandColumns(instrument);
  const scored = instrument.months.some((month) => month.mean_total !== null);
  return (
    <table className={INSTRUMENT_TABLE}>
      <caption>{instrument.name}</caption>
      <thead>
        <tr>
          <th scope="col">
            <Trans>Month</Trans>
          </th>
          {bands.map((band) => (
            <th scope="col" key={band}>
              {band}
            </th>
          ))}
          <th scope="col">
            <Trans>Students</Trans>
          </th>
          {scored && (
            <th scope="col">
              <Trans>Mean total</Trans>
            </th>
          )}
          {scored && (
            <th scope="col">
              <Trans>Change</Trans>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {instrument.months.map((month) => {
          const counts = new Map(month.bands.map((band) => [band.band, band.students]));
          // A band nobody fell in is a group of none: where this month's small groups are hidden,
          // it is hidden like them, or a shown zero would help work a hidden band out.
          const marker = anySuppressed(month)
            ? [month.students, ...counts.values()].find(isSuppressed)
            : undefined;
          return (
            <tr key={month.month}>
              <th scope="row" data-label={t`Month`}>
                {monthName(month.month)}
              </th>
              {bands.map((band) => (
                <td key={band} data-label={band}>
                  {shownText(counts.get(band) ?? marker ?? 0)}
                </td>
              ))}
              <td data-label={t`Students`}>{shownText(month.students)}</td>
              {scored && (
                <td data-label={t`Mean total`}>
                  {shownText(month.mean_total, (mean) => (mean === null ? '–' : formatOneDecimal(mean)))}
                </td>
              )}
              {scored && <td data-label={t`Change`}>{shownText(month.mean_change, changeText)}</td>}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

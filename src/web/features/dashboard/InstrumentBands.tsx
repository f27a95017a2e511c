import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { SCREENING_DISCLAIMER } from '../../../common/instruments';
import { InstrumentBandMonths } from '../../../common/schemas/dashboard';
import { isSuppressed, smallGroupRule } from '../../../common/small-groups';
import { api } from '../../api';
import styles from './Dashboard.module.css';
import { DASHBOARD_TABLE } from './dashboardTable';
import { shownText } from './shownFigures';

export const INSTRUMENT_BANDS_QUERY_KEY = ['dashboard', 'instruments'] as const;

function fetchInstrumentBands() {
  return api.get('/api/dashboard/instruments/', InstrumentBandMonths);
}

/**
 * Per validated instrument, how many students fell in each band, month by month: numbers only,
 * for every staff role. Nothing shows while no instrument has been answered.
 */
export function InstrumentBands() {
  const headingId = useId();
  const query = useQuery({ queryKey: INSTRUMENT_BANDS_QUERY_KEY, queryFn: fetchInstrumentBands });
  const instruments = query.data?.instruments ?? [];
  if (instruments.length === 0) return null;
  const hidden = instruments
    .flatMap((instrument) => instrument.months.flatMap((month) => month.bands))
    .map((band) => band.students)
    .find(isSuppressed);
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.panelTitle}>
        Validated Instruments by Band
      </h2>
      <p className={styles.tableNote}>Students per band each month ({SCREENING_DISCLAIMER}).</p>
      {hidden && <p className={styles.tableNote}>{smallGroupRule(hidden.fewer_than)}</p>}
      {instruments.map((instrument) => (
        <table key={instrument.instrument_id} className={DASHBOARD_TABLE}>
          <caption>{instrument.name}</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Band</th>
              <th scope="col">Students</th>
            </tr>
          </thead>
          <tbody>
            {instrument.months.flatMap((month) =>
              month.bands.map((band) => (
                <tr key={`${month.month}:${band.band}`}>
                  <th scope="row" data-label="Month">
                    {month.month}
                  </th>
                  <td data-label="Band">{band.band}</td>
                  <td data-label="Students">{shownText(band.students)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      ))}
    </section>
  );
}

import type { DashboardData, InstrumentBandMonths } from '../../../common/schemas/dashboard';
import {
  type Cell,
  cellsToHide,
  type Line,
  type Shown,
  suppressed,
  type Unsuppressed,
} from '../../../common/small-groups';
import type { InstrumentBands } from './instrument-bands';

/** The counts of students that the dashboard's rates and percentages stand on. */
export interface DashboardBases {
  /** The 30-day response rate: students who answered, over its denominator (the roster, once there is one). */
  active: number;
  rateBase: number;
  /** Whether that denominator is `num_students` itself, which is shown too. */
  rateBaseIsStudents: boolean;
  /** Each month's response rate, as students over its denominator. */
  monthlyRates: { students: number; base: number }[];
  /** Support answers per month, behind the support percentages. */
  monthlySupportAnswers: number[];
}

/** Every dashboard figure as computed, before any is hidden, with what its rates stand on. */
export type DashboardFigures = Unsuppressed<DashboardData> & { bases: DashboardBases };

/**
 * The dashboard as staff who may not see names get it (design section 14): every figure over
 * fewer students than the institution's threshold, and those that would give one away, replaced
 * by the `Suppressed` marker. How the figures sum is told to the rule as lines: everyone is those
 * flagged, those stable and those who have not answered; those who answered fall into the sleep
 * and stress groups (plus whoever gave no such answer); open cases are overdue or not.
 */
export function suppressSmallGroups(figures: DashboardFigures): DashboardData {
  const threshold = figures.small_group_threshold;
  const { bases, follow_up: followUp } = figures;
  const answered = figures.num_flagged_students + figures.num_stable_students;
  const rest = (total: number, ...parts: number[]) =>
    Math.max(0, total - parts.reduce((sum, part) => sum + part, 0));
  const hiddenOnly = (students: number): Cell => ({ students, published: false });
  const cells: Record<string, Cell> = {
    students: { students: figures.num_students },
    flagged: { students: figures.num_flagged_students },
    stable: { students: figures.num_stable_students },
    notAnswered: hiddenOnly(rest(figures.num_students, answered)),
    answered: hiddenOnly(answered),
    goodSleep: { students: figures.num_good_sleep_quality },
    poorSleep: { students: figures.num_bad_sleep_quality },
    otherSleep: hiddenOnly(rest(answered, figures.num_good_sleep_quality, figures.num_bad_sleep_quality)),
    lowStress: { students: figures.num_low_stress },
    moderateStress: { students: figures.num_moderate_stress },
    highStress: { students: figures.num_high_stress },
    otherStress: hiddenOnly(
      rest(answered, figures.num_low_stress, figures.num_moderate_stress, figures.num_high_stress),
    ),
    // The rate over a shown denominator gives its numerator away: it is a figure of its own.
    active: { students: bases.active },
    inactive: hiddenOnly(rest(bases.rateBase, bases.active)),
    openCases: { students: followUp.open_cases },
    overdueCases: { students: followUp.overdue_cases },
    onTimeCases: hiddenOnly(rest(followUp.open_cases, followUp.overdue_cases)),
    alertDelays: { students: followUp.time_to_alert_sent.count },
    acknowledgeDelays: { students: followUp.time_to_acknowledge.count },
    unverified: { students: figures.num_unverified_flagged },
  };
  figures.monthly_num_responses.forEach((students, month) => {
    cells[`month${month}`] = { students };
  });
  const rateBase = bases.rateBaseIsStudents ? 'students' : 'rateBase';
  if (!bases.rateBaseIsStudents) cells.rateBase = hiddenOnly(bases.rateBase);
  const lines: Line[] = [
    { total: 'students', parts: ['flagged', 'stable', 'notAnswered'] },
    { total: 'answered', parts: ['flagged', 'stable'] },
    { total: 'answered', parts: ['goodSleep', 'poorSleep', 'otherSleep'] },
    { total: 'answered', parts: ['lowStress', 'moderateStress', 'highStress', 'otherStress'] },
    { total: rateBase, parts: ['active', 'inactive'] },
    { total: 'openCases', parts: ['overdueCases', 'onTimeCases'] },
  ];
  const hidden = cellsToHide({ cells, lines }, threshold);
  const marker = suppressed(threshold);
  const show = <T>(id: string, value: T): Shown<T> => (hidden.has(id) ? marker : value);
  /** A figure worked out from others is shown only when each of them could be. */
  const showIf = <T>(safe: boolean, value: T): Shown<T> => (safe ? value : marker);
  const delays = (id: string, figure: Unsuppressed<DashboardData['follow_up']['time_to_alert_sent']>) => ({
    count: show(id, figure.count),
    median_ms: show(id, figure.median_ms),
    p90_ms: show(id, figure.p90_ms),
  });
  const { bases: _bases, ...shown } = figures;
  return {
    ...shown,
    monthly_num_responses: figures.monthly_num_responses.map((students, month) =>
      show(`month${month}`, students),
    ),
    monthly_support_perception: figures.monthly_support_perception.map((value, month) =>
      showIf(!hidden.has(`month${month}`) && (bases.monthlySupportAnswers[month] ?? 0) >= threshold, value),
    ),
    monthly_response_rates: figures.monthly_response_rates.map((value, month) => {
      const rate = bases.monthlyRates[month];
      return showIf((rate?.students ?? 0) >= threshold && (rate?.base ?? 0) >= threshold, value);
    }),
    num_responses: showIf(answered >= threshold, figures.num_responses),
    num_flagged_students: show('flagged', figures.num_flagged_students),
    num_stable_students: show('stable', figures.num_stable_students),
    response_rate: showIf(!hidden.has('active') && bases.rateBase >= threshold, figures.response_rate),
    num_students: show('students', figures.num_students),
    num_good_sleep_quality: show('goodSleep', figures.num_good_sleep_quality),
    num_bad_sleep_quality: show('poorSleep', figures.num_bad_sleep_quality),
    num_low_stress: show('lowStress', figures.num_low_stress),
    num_moderate_stress: show('moderateStress', figures.num_moderate_stress),
    num_high_stress: show('highStress', figures.num_high_stress),
    num_unverified_flagged: show('unverified', figures.num_unverified_flagged),
    follow_up: {
      open_cases: show('openCases', followUp.open_cases),
      overdue_cases: show('overdueCases', followUp.overdue_cases),
      time_to_alert_sent: delays('alertDelays', followUp.time_to_alert_sent),
      time_to_acknowledge: delays('acknowledgeDelays', followUp.time_to_acknowledge),
    },
  };
}

/** The dashboard in full, for staff who may see names: the figures without what they stand on. */
export function unsuppressed(figures: DashboardFigures): DashboardData {
  const { bases: _bases, ...data } = figures;
  return data;
}

/**
 * Instrument figures as staff who may not see names get them: a band, or a month's students, of
 * fewer than the threshold is suppressed, and so is the mean over a suppressed month (a mean of
 * two scores and one of them known gives the other) and any change from or to it. When every
 * student of the month fell in one band only, the bands add up to the students shown beside
 * them, so they are one line and hidden together as any other line is; otherwise no band can be
 * worked out from the rest.
 */
export function suppressSmallBands(
  instruments: InstrumentBands,
  threshold: number,
): InstrumentBandMonths['instruments'] {
  const marker = suppressed(threshold);
  return instruments.map((instrument) => {
    const hiddenMonths = new Set<string>();
    const months = instrument.months.map((month) => {
      const cells: Record<string, Cell> = { students: { students: month.students } };
      for (const band of month.bands) cells[`band:${band.band}`] = { students: band.students };
      const parts = month.bands.map((band) => `band:${band.band}`);
      const addsUp = month.bands.reduce((sum, band) => sum + band.students, 0) === month.students;
      const hidden = cellsToHide({ cells, lines: addsUp ? [{ total: 'students', parts }] : [] }, threshold);
      if (hidden.has('students')) hiddenMonths.add(month.month);
      return { month, hidden };
    });
    return {
      ...instrument,
      months: months.map(({ month, hidden }) => {
        const small = hiddenMonths.has(month.month);
        const changeHidden =
          small || (month.mean_change !== null && hiddenMonths.has(month.mean_change.from_month));
        return {
          ...month,
          bands: month.bands.map((band) => ({
            ...band,
            students: hidden.has(`band:${band.band}`) ? marker : band.students,
          })),
          students: small ? marker : month.students,
          mean_total: small && month.mean_total !== null ? marker : month.mean_total,
          mean_change: changeHidden && month.mean_change !== null ? marker : month.mean_change,
        };
      }),
    };
  });
}

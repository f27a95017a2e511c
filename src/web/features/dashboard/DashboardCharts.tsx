import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import {
  ArcElement,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  type ChartOptions,
  Legend,
  LinearScale,
  LineElement,
  type Plugin,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useId } from 'react';
import { Bar, Doughnut, Line } from 'react-chartjs-2';
import type { DashboardData } from '../../../common/schemas/dashboard';
import { isSuppressed, type Shown } from '../../../common/small-groups';
import { useMediaQuery } from '../../ui/useMediaQuery';
import styles from './Dashboard.module.css';
import { fewerThanText } from './shownFigures';

/*
 * Chart.js lives only in the dashboard's chunk: this module is imported by the lazily loaded
 * dashboard screen and nowhere else. Only the pieces the six charts use are registered.
 */
ChartJS.register(
  ArcElement,
  BarElement,
  CategoryScale,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
);
ChartJS.defaults.font.family =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
ChartJS.defaults.color = '#4a5a60';

/** Spec section 9: bars are 40 px thick. */
const BAR_THICKNESS = 40;

/**
 * Below this width (where the charts go to one column) twelve upright 40 px bars no longer fit
 * a card: the monthly chart lays its bars sideways, one row per month, so every month, its
 * label and its value stay readable without scrolling sideways.
 */
const NARROW_SCREEN = '(max-width: 48rem)';
/** Height of one month's row when the bars lie sideways: the bar and a gap. */
const SIDEWAYS_ROW_HEIGHT = 48;

/** What the data table says for a month without any response (drawn as a gap, not as 0%). */
const NO_RESPONSES = msg`No responses`;

/** Colours from the design tokens; each keeps a 3:1 contrast with the white card behind it. */
const COLORS = {
  text: '#17262b',
  primary: '#0c5f5b',
  blue: '#1f5fcc',
  danger: '#a6261d',
  success: '#1c6436',
  amber: '#9a6700',
  orange: '#b4541a',
  grid: '#e3e9e8',
};

type ChartKind = 'bar' | 'line' | 'doughnut';

/** How the canvas is announced: what kind of chart it is and which, its values being in the table. */
const CANVAS_LABELS: Record<ChartKind, (title: string) => MessageDescriptor> = {
  bar: (title) => msg`Bar chart: ${title}. The values are listed in the table that follows.`,
  line: (title) => msg`Line chart: ${title}. The values are listed in the table that follows.`,
  doughnut: (title) => msg`Doughnut chart: ${title}. The values are listed in the table that follows.`,
};

/** How the server names months (server/features/dashboard/rollups/calendar.ts). */
const MONTH_ABBREVIATIONS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];

/**
 * A month of the dashboard ("Dec 2025", as the server names it) in the page's language: "dic
 * 2025". English keeps the server's wording; anything unrecognised is shown as it came.
 */
function monthInLanguage(label: string, language: string): string {
  if (language === 'en') return label;
  const [name, year] = label.split(' ');
  const month = MONTH_ABBREVIATIONS.indexOf(name ?? '');
  if (month === -1 || !/^\d{4}$/.test(year ?? '')) return label;
  return new Intl.DateTimeFormat(language, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(Number(year), month, 1)),
  );
}

interface Series {
  label: string;
  /**
   * null: nothing to show for that category (a month without responses), drawn as a gap. A
   * suppressed figure (a small group) is drawn as a gap too, and named beneath the chart.
   */
  values: readonly Shown<number | null>[];
  color: string;
}

interface ChartSpec {
  id: string;
  title: string;
  kind: ChartKind;
  /** The x-axis categories (months, or one group), which head the rows of the data table. */
  labels: readonly string[];
  /** Heading of the data table's first column. */
  labelHeader: string;
  series: readonly Series[];
  percent?: boolean;
  /** full: a row of its own; sideways: the same, and its bars lie sideways on a narrow screen. */
  layout?: 'full' | 'sideways';
  /** One dataset coloured per slice (doughnut). */
  sliceColors?: readonly string[];
  /** A single series the title already names needs no legend. */
  hideLegend?: boolean;
}

/** Writes each bar's value at its end (above it, or right of it when lying sideways), so it reads without the axis. */
const barValueLabels: Plugin<'bar'> = {
  id: 'barValueLabels',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    const sideways = chart.options.indexAxis === 'y';
    ctx.save();
    ctx.font = `600 12px ${ChartJS.defaults.font.family}`;
    ctx.fillStyle = COLORS.text;
    ctx.textAlign = sideways ? 'left' : 'center';
    ctx.textBaseline = sideways ? 'middle' : 'bottom';
    chart.data.datasets.forEach((dataset, datasetIndex) => {
      const meta = chart.getDatasetMeta(datasetIndex);
      if (meta.hidden) return;
      meta.data.forEach((bar, index) => {
        const value = dataset.data[index];
        if (typeof value !== 'number' || value <= 0) return;
        if (sideways) ctx.fillText(String(value), bar.x + 6, bar.y);
        else ctx.fillText(String(value), bar.x, bar.y - 4);
      });
    });
    ctx.restore();
  },
};

function prefersReducedMotion() {
  return (
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

function axisOptions(percent: boolean, sideways = false): ChartOptions<'bar' | 'line'>['scales'] {
  const categories = { grid: { display: false } };
  const values = {
    beginAtZero: true,
    ...(percent ? { max: 100 } : {}),
    grid: { color: COLORS.grid },
    ticks: {
      precision: 0,
      ...(percent ? { callback: (value: string | number) => `${value}%` } : {}),
    },
  };
  return sideways ? { x: values, y: categories } : { x: categories, y: values };
}

function commonOptions(spec: ChartSpec, language: string) {
  return {
    // Numbers in tooltips and on the axes as the page's language writes them.
    locale: language,
    responsive: true,
    maintainAspectRatio: false,
    animation: prefersReducedMotion() ? (false as const) : { duration: 400 },
    plugins: {
      legend: {
        display: !spec.hideLegend,
        position: 'bottom' as const,
        labels: { boxWidth: 14, boxHeight: 14 },
      },
      tooltip: {
        callbacks: spec.percent
          ? {
              label: (item: { dataset: { label?: string }; formattedValue: string }) =>
                `${item.dataset.label}: ${item.formattedValue}%`,
            }
          : {},
      },
    },
  };
}

/** What the canvas draws: a suppressed figure is a gap, like a month without responses. */
function drawn(values: Series['values']): (number | null)[] {
  return values.map((value) => (isSuppressed(value) ? null : value));
}

function ChartCanvas({ spec, sideways = false }: { spec: ChartSpec; sideways?: boolean }) {
  const { i18n } = useLingui();
  const label = i18n._(CANVAS_LABELS[spec.kind](spec.title));
  const a11y = { role: 'img', 'aria-label': label } as const;

  if (spec.kind === 'doughnut') {
    const data = {
      labels: [...spec.labels],
      datasets: spec.series.map((series) => ({
        label: series.label,
        data: drawn(series.values),
        backgroundColor: [...(spec.sliceColors ?? [])],
        borderColor: '#ffffff',
        borderWidth: 2,
      })),
    };
    return (
      <Doughnut {...a11y} data={data} options={{ ...commonOptions(spec, i18n.locale), cutout: '60%' }} />
    );
  }

  if (spec.kind === 'line') {
    const data = {
      labels: [...spec.labels],
      datasets: spec.series.map((series) => ({
        label: series.label,
        data: drawn(series.values),
        borderColor: series.color,
        backgroundColor: series.color,
        pointRadius: 4,
        pointHoverRadius: 6,
        borderWidth: 3,
        // Smooth, but never above 100% or below 0% between two points.
        cubicInterpolationMode: 'monotone' as const,
        // A point at 100% is drawn whole, not cut by the chart's edge.
        clip: false as const,
        // A month without responses is a gap in the line, not a fall to 0%.
        spanGaps: false,
      })),
    };
    return (
      <Line
        {...a11y}
        data={data}
        options={{ ...commonOptions(spec, i18n.locale), scales: axisOptions(spec.percent ?? false) }}
      />
    );
  }

  const data = {
    labels: [...spec.labels],
    datasets: spec.series.map((series) => ({
      label: series.label,
      data: drawn(series.values),
      backgroundColor: series.color,
      borderRadius: 4,
      barThickness: BAR_THICKNESS,
    })),
  };
  return (
    <Bar
      {...a11y}
      data={data}
      plugins={[barValueLabels]}
      options={{
        ...commonOptions(spec, i18n.locale),
        indexAxis: sideways ? 'y' : 'x',
        // Room for the values written at the bars' ends.
        layout: { padding: sideways ? { right: 28 } : { top: 20 } },
        scales: axisOptions(spec.percent ?? false, sideways),
      }}
    />
  );
}

/** The chart's values as a table for screen readers (a canvas has no text of its own). */
function ChartTable({ spec }: { spec: ChartSpec }) {
  const { i18n } = useLingui();
  const format = (value: Shown<number | null> | undefined) => {
    if (value === undefined) return '';
    if (value === null) return i18n._(NO_RESPONSES);
    if (isSuppressed(value)) return fewerThanText(value);
    return spec.percent ? `${value}%` : String(value);
  };
  // The wrapper hides it: a table ignores the size limits that hide other elements.
  return (
    <div className="visually-hidden">
      <table>
        <caption>{spec.title}</caption>
        <thead>
          <tr>
            <th scope="col">{spec.labelHeader}</th>
            {spec.series.map((series) => (
              <th scope="col" key={series.label}>
                {series.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {spec.labels.map((label, row) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {spec.series.map((series) => (
                <td key={series.label}>{format(series.values[row])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Twelve upright 40 px bars do not fit a phone: there they lie sideways, one row per month,
 * and the chart grows downwards instead of scrolling sideways.
 */
function SidewaysOnNarrowScreens({ spec }: { spec: ChartSpec }) {
  const narrow = useMediaQuery(NARROW_SCREEN);
  if (!narrow) {
    return (
      <div className={styles.chartBox}>
        <ChartCanvas spec={spec} />
      </div>
    );
  }
  const height = spec.labels.length * SIDEWAYS_ROW_HEIGHT + 40;
  return (
    <div className={styles.chartBoxSideways} style={{ height }}>
      <ChartCanvas spec={spec} sideways />
    </div>
  );
}

function ChartFigure({ spec, fullWidth }: { spec: ChartSpec; fullWidth: boolean }) {
  const titleId = useId();
  return (
    <figure
      className={[styles.chartCard, fullWidth && styles.chartWide].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
    >
      <h3 id={titleId} className={styles.chartTitle}>
        {spec.title}
      </h3>
      {spec.layout === 'sideways' ? (
        <SidewaysOnNarrowScreens spec={spec} />
      ) : (
        <div className={styles.chartBox}>
          <ChartCanvas spec={spec} />
        </div>
      )}
      <SuppressedNote spec={spec} />
      <ChartTable spec={spec} />
    </figure>
  );
}

/** The chart's hidden figures, named in words: a gap in a chart says nothing by itself. */
function SuppressedNote({ spec }: { spec: ChartSpec }) {
  const hidden = spec.series.flatMap((series) =>
    series.values.flatMap((value, index) => {
      if (!isSuppressed(value)) return [];
      const category = spec.labels[index] ?? '';
      const name = spec.series.length > 1 ? series.label : category;
      return [{ name, label: fewerThanText(value) }];
    }),
  );
  const first = hidden[0];
  if (!first) return null;
  return (
    <p className={styles.chartNote}>
      {first.label}: {hidden.map((entry) => entry.name).join(', ')}.
    </p>
  );
}

/**
 * A monthly percentage with the months nobody answered in left out (null): the server says 0%
 * for them, which a line chart would draw as a collapse. The month stays on the axis.
 */
function withoutEmptyMonths(values: readonly Shown<number>[], data: DashboardData): Shown<number | null>[] {
  return values.map((value, month) => {
    const students = data.monthly_num_responses[month];
    return students === undefined || students === 0 ? null : value;
  });
}

/**
 * The six charts of spec section 2. Sleep, support and stress charts appear only when the
 * institution's templates ask about them.
 */
function chartSpecs(data: DashboardData, i18n: I18n): ChartSpec[] {
  const months = data.months.map((month) => monthInLanguage(month, i18n.locale));
  const specs: (ChartSpec | false)[] = [
    {
      id: 'monthly-responses',
      title: i18n._(msg`Monthly Survey Responses`),
      kind: 'bar',
      labels: months,
      labelHeader: i18n._(msg`Month`),
      series: [
        {
          label: i18n._(msg`Students Surveyed`),
          values: data.monthly_num_responses,
          color: COLORS.primary,
        },
      ],
      layout: 'sideways',
      hideLegend: true,
    },
    {
      id: 'risk-split',
      title: i18n._(msg`At-Risk vs Stable Students`),
      kind: 'doughnut',
      labels: [i18n._(msg`At-Risk`), i18n._(msg`Stable`)],
      labelHeader: i18n._(msg`Group`),
      series: [
        {
          label: i18n._(msg`Students`),
          values: [data.num_flagged_students, data.num_stable_students],
          color: '',
        },
      ],
      sliceColors: [COLORS.danger, COLORS.success],
    },
    data.has_sleep_questions && {
      id: 'sleep-quality',
      title: i18n._(msg`Sleep Quality Distribution`),
      kind: 'bar',
      labels: [i18n._(msg`Students`)],
      labelHeader: i18n._(msg`Group`),
      series: [
        { label: i18n._(msg`Good Sleep`), values: [data.num_good_sleep_quality], color: COLORS.primary },
        { label: i18n._(msg`Poor Sleep`), values: [data.num_bad_sleep_quality], color: COLORS.orange },
      ],
    },
    data.has_support_questions && {
      id: 'support-perception',
      title: i18n._(msg`Campus Support Perception`),
      kind: 'line',
      labels: months,
      labelHeader: i18n._(msg`Month`),
      series: [
        {
          label: i18n._(msg`Feel Supported`),
          values: withoutEmptyMonths(data.monthly_support_perception, data),
          color: COLORS.blue,
        },
      ],
      percent: true,
    },
    data.has_stress_questions && {
      id: 'stress-levels',
      title: i18n._(msg`Stress Levels Analysis`),
      kind: 'bar',
      labels: [i18n._(msg`Students`)],
      labelHeader: i18n._(msg`Group`),
      series: [
        { label: i18n._(msg`Low`), values: [data.num_low_stress], color: COLORS.success },
        { label: i18n._(msg`Moderate`), values: [data.num_moderate_stress], color: COLORS.amber },
        { label: i18n._(msg`High`), values: [data.num_high_stress], color: COLORS.danger },
      ],
    },
    {
      id: 'response-rate',
      title: i18n._(msg`Response Rate Trend`),
      kind: 'line',
      labels: months,
      labelHeader: i18n._(msg`Month`),
      series: [
        {
          label: i18n._(msg`Response Rate %`),
          values: withoutEmptyMonths(data.monthly_response_rates, data),
          color: COLORS.primary,
        },
      ],
      percent: true,
      layout: 'full',
    },
  ];
  return specs.filter((spec): spec is ChartSpec => spec !== false);
}

export function DashboardCharts({ data }: { data: DashboardData }) {
  const { i18n } = useLingui();
  const specs = chartSpecs(data, i18n);
  // Half-width charts sit in pairs; an odd one out takes the whole row instead of half of it.
  const halves = specs.filter((spec) => !spec.layout);
  const oddOneOut = halves.length % 2 === 1 ? halves[halves.length - 1] : undefined;
  return (
    <div className={styles.charts}>
      {specs.map((spec) => (
        <ChartFigure key={spec.id} spec={spec} fullWidth={spec.layout !== undefined || spec === oddOneOut} />
      ))}
    </div>
  );
}

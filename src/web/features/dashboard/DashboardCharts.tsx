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
import { useEffect, useId, useRef } from 'react';
import { Bar, Doughnut, Line } from 'react-chartjs-2';
import type { DashboardData } from '../../../common/schemas/dashboard';
import styles from './Dashboard.module.css';

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
export const BAR_THICKNESS = 40;

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

const KIND_NAMES: Record<ChartKind, string> = { bar: 'Bar', line: 'Line', doughnut: 'Doughnut' };

interface Series {
  label: string;
  values: readonly number[];
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
  /** full: a row of its own; scroll: the same, and it scrolls sideways when the screen is narrow. */
  layout?: 'full' | 'scroll';
  /** One dataset coloured per slice (doughnut). */
  sliceColors?: readonly string[];
  /** A single series the title already names needs no legend. */
  hideLegend?: boolean;
}

/** Writes each bar's value above it, so a bar chart reads without the axis (which may be scrolled away). */
const barValueLabels: Plugin<'bar'> = {
  id: 'barValueLabels',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.font = `600 12px ${ChartJS.defaults.font.family}`;
    ctx.fillStyle = COLORS.text;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    chart.data.datasets.forEach((dataset, datasetIndex) => {
      const meta = chart.getDatasetMeta(datasetIndex);
      if (meta.hidden) return;
      meta.data.forEach((bar, index) => {
        const value = dataset.data[index];
        if (typeof value === 'number' && value > 0) ctx.fillText(String(value), bar.x, bar.y - 4);
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

function axisOptions(percent: boolean): ChartOptions<'bar' | 'line'>['scales'] {
  return {
    x: { grid: { display: false } },
    y: {
      beginAtZero: true,
      ...(percent ? { max: 100 } : {}),
      grid: { color: COLORS.grid },
      ticks: {
        precision: 0,
        ...(percent ? { callback: (value: string | number) => `${value}%` } : {}),
      },
    },
  };
}

function commonOptions(spec: ChartSpec) {
  return {
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

function ChartCanvas({ spec }: { spec: ChartSpec }) {
  const label = `${KIND_NAMES[spec.kind]} chart: ${spec.title}. The values are listed in the table that follows.`;
  const a11y = { role: 'img', 'aria-label': label } as const;

  if (spec.kind === 'doughnut') {
    const data = {
      labels: [...spec.labels],
      datasets: spec.series.map((series) => ({
        label: series.label,
        data: [...series.values],
        backgroundColor: [...(spec.sliceColors ?? [])],
        borderColor: '#ffffff',
        borderWidth: 2,
      })),
    };
    return <Doughnut {...a11y} data={data} options={{ ...commonOptions(spec), cutout: '60%' }} />;
  }

  if (spec.kind === 'line') {
    const data = {
      labels: [...spec.labels],
      datasets: spec.series.map((series) => ({
        label: series.label,
        data: [...series.values],
        borderColor: series.color,
        backgroundColor: series.color,
        pointRadius: 4,
        pointHoverRadius: 6,
        borderWidth: 3,
        // Smooth, but never above 100% or below 0% between two points.
        cubicInterpolationMode: 'monotone' as const,
        // A point at 100% is drawn whole, not cut by the chart's edge.
        clip: false as const,
      })),
    };
    return (
      <Line
        {...a11y}
        data={data}
        options={{ ...commonOptions(spec), scales: axisOptions(spec.percent ?? false) }}
      />
    );
  }

  const data = {
    labels: [...spec.labels],
    datasets: spec.series.map((series) => ({
      label: series.label,
      data: [...series.values],
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
        ...commonOptions(spec),
        layout: { padding: { top: 20 } },
        scales: axisOptions(spec.percent ?? false),
      }}
    />
  );
}

/** The chart's values as a table for screen readers (a canvas has no text of its own). */
function ChartTable({ spec }: { spec: ChartSpec }) {
  const format = (value: number | undefined) =>
    value === undefined ? '' : spec.percent ? `${value}%` : String(value);
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
 * Twelve 40 px bars do not fit a phone: the chart keeps its width and scrolls sideways,
 * starting at the newest month.
 */
function ScrollingChart({ spec }: { spec: ChartSpec }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollLeft = ref.current.scrollWidth;
  }, []);
  const label = `${spec.title}, scrollable`;
  return (
    // Focusable so keyboard users can scroll it sideways on a narrow screen.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section ref={ref} className={styles.chartScroller} tabIndex={0} aria-label={label}>
      <div className={styles.chartBoxWide}>
        <ChartCanvas spec={spec} />
      </div>
    </section>
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
      {spec.layout === 'scroll' ? (
        <ScrollingChart spec={spec} />
      ) : (
        <div className={styles.chartBox}>
          <ChartCanvas spec={spec} />
        </div>
      )}
      <ChartTable spec={spec} />
    </figure>
  );
}

/**
 * The six charts of spec section 2. Sleep, support and stress charts appear only when the
 * institution's templates ask about them.
 */
export function chartSpecs(data: DashboardData): ChartSpec[] {
  const specs: (ChartSpec | false)[] = [
    {
      id: 'monthly-responses',
      title: 'Monthly Survey Responses',
      kind: 'bar',
      labels: data.months,
      labelHeader: 'Month',
      series: [{ label: 'Students Surveyed', values: data.monthly_num_responses, color: COLORS.primary }],
      layout: 'scroll',
      hideLegend: true,
    },
    {
      id: 'risk-split',
      title: 'At-Risk vs Stable Students',
      kind: 'doughnut',
      labels: ['At-Risk', 'Stable'],
      labelHeader: 'Group',
      series: [
        { label: 'Students', values: [data.num_flagged_students, data.num_stable_students], color: '' },
      ],
      sliceColors: [COLORS.danger, COLORS.success],
    },
    data.has_sleep_questions && {
      id: 'sleep-quality',
      title: 'Sleep Quality Distribution',
      kind: 'bar',
      labels: ['Students'],
      labelHeader: 'Group',
      series: [
        { label: 'Good Sleep', values: [data.num_good_sleep_quality], color: COLORS.primary },
        { label: 'Poor Sleep', values: [data.num_bad_sleep_quality], color: COLORS.orange },
      ],
    },
    data.has_support_questions && {
      id: 'support-perception',
      title: 'Campus Support Perception',
      kind: 'line',
      labels: data.months,
      labelHeader: 'Month',
      series: [{ label: 'Feel Supported', values: data.monthly_support_perception, color: COLORS.blue }],
      percent: true,
    },
    data.has_stress_questions && {
      id: 'stress-levels',
      title: 'Stress Levels Analysis',
      kind: 'bar',
      labels: ['Students'],
      labelHeader: 'Group',
      series: [
        { label: 'Low', values: [data.num_low_stress], color: COLORS.success },
        { label: 'Moderate', values: [data.num_moderate_stress], color: COLORS.amber },
        { label: 'High', values: [data.num_high_stress], color: COLORS.danger },
      ],
    },
    {
      id: 'response-rate',
      title: 'Response Rate Trend',
      kind: 'line',
      labels: data.months,
      labelHeader: 'Month',
      series: [{ label: 'Response Rate %', values: data.monthly_response_rates, color: COLORS.primary }],
      percent: true,
      layout: 'full',
    },
  ];
  return specs.filter((spec): spec is ChartSpec => spec !== false);
}

export function DashboardCharts({ data }: { data: DashboardData }) {
  const specs = chartSpecs(data);
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

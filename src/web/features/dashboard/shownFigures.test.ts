import { beforeAll, describe, expect, it } from 'vitest';
import type { DashboardData } from '../../../common/schemas/dashboard';
import { activateLanguage } from '../../app/i18n';
import { anySuppressed, shownText } from './shownFigures';

beforeAll(() => activateLanguage('en', ['staff']));

const hidden = { suppressed: true as const, fewer_than: 5 };

describe('shown figures', () => {
  it('writes a suppressed figure as "Fewer than N" and any other as formatted', () => {
    expect(shownText(hidden)).toBe('Fewer than 5');
    expect(shownText(12)).toBe('12');
    expect(shownText(40, (rate) => `${rate}%`)).toBe('40%');
    expect(shownText(hidden, (rate) => `${rate}%`)).toBe('Fewer than 5');
  });

  it('finds a suppressed figure however deep it sits, and none where all are numbers', () => {
    const figures = {
      num_students: 20,
      monthly_num_responses: [7, 8],
      follow_up: { time_to_alert_sent: { count: 6, median_ms: 1000, p90_ms: 2000 } },
    };
    expect(anySuppressed(figures as unknown as DashboardData)).toBe(false);
    const deep = { ...figures, follow_up: { time_to_alert_sent: { count: hidden } } };
    expect(anySuppressed(deep as unknown as DashboardData)).toBe(true);
    expect(
      anySuppressed({ ...figures, monthly_num_responses: [7, hidden] } as unknown as DashboardData),
    ).toBe(true);
  });
});

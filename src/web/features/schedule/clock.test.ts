import { describe, expect, it } from 'vitest';
import { WEEKDAYS } from '../../../common/schemas/campaigns';
import { clockTime, weekdayLabel, weekdayName } from './clock';

describe('a campaign day and time in the page language', () => {
  it('names every weekday as English and Spanish say it', () => {
    expect(WEEKDAYS.map((day) => weekdayName(day, 'en'))).toEqual([...WEEKDAYS]);
    expect(WEEKDAYS.map((day) => weekdayName(day, 'es'))).toEqual([
      'lunes',
      'martes',
      'miércoles',
      'jueves',
      'viernes',
      'sábado',
      'domingo',
    ]);
    expect(weekdayLabel('Wednesday', 'es')).toBe('Miércoles');
    expect(weekdayLabel('Wednesday', 'en')).toBe('Wednesday');
  });

  it("keeps the server's English time and reads it on another language's clock", () => {
    expect(clockTime('9:00 AM', 'en')).toBe('9:00 AM');
    expect(clockTime('12:30 PM', 'en')).toBe('12:30 PM');
    expect(clockTime('9:05 PM', 'es')).toBe('21:05');
    expect(clockTime('12:00 AM', 'es')).toBe('0:00');
    expect(clockTime('12:15 PM', 'es')).toBe('12:15');
  });
});

import { describe, expect, it } from 'vitest';
import { allItems } from './conditional';
import { INSTRUMENTS } from './registry';
import { INSTRUMENT_IDS } from './types';

describe('the instrument library', () => {
  it('holds every shipped instrument under its own id', () => {
    expect(Object.keys(INSTRUMENTS).sort()).toEqual([...INSTRUMENT_IDS].sort());
    for (const id of INSTRUMENT_IDS) expect(INSTRUMENTS[id].id).toBe(id);
  });

  it.each(INSTRUMENT_IDS)('%s numbers its items in form order with unique ids', (id) => {
    const items = allItems(INSTRUMENTS[id]);
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    const first = items[0]?.number ?? 1;
    expect(items.map((item) => item.number)).toEqual(items.map((_, index) => first + index));
  });

  it.each(INSTRUMENT_IDS)('%s has a citation and a source, and bands that tile its total range', (id) => {
    const instrument = INSTRUMENTS[id];
    expect(instrument.citation.length).toBeGreaterThan(20);
    expect(instrument.sourceUrl).toMatch(/^https?:\/\//);
    for (const [index, band] of instrument.bands.entries()) {
      expect(band.max).toBeGreaterThanOrEqual(band.min);
      const next = instrument.bands[index + 1];
      if (next) expect(next.min).toBe(band.max + 1);
    }
    const total = instrument.total;
    if (total && instrument.bands.length > 0 && id !== 'who5') {
      expect(instrument.bands[0]?.min).toBe(total.min);
      expect(instrument.bands.at(-1)?.max).toBe(total.max);
    }
  });

  it('keeps the PHQ-2 and GAD-2 as the first items of the PHQ-9 and GAD-7, word for word', () => {
    expect([...INSTRUMENTS.phq2.items, ...INSTRUMENTS.phq2.conditionalItems]).toEqual(INSTRUMENTS.phq9.items);
    expect([...INSTRUMENTS.gad2.items, ...INSTRUMENTS.gad2.conditionalItems]).toEqual(INSTRUMENTS.gad7.items);
    expect(INSTRUMENTS.phq2.items).toHaveLength(2);
    expect(INSTRUMENTS.gad2.items).toHaveLength(2);
  });

  it('prints the publishers’ scales', () => {
    expect(INSTRUMENTS.phq9.scale).toEqual([
      { value: 0, label: 'Not at all' },
      { value: 1, label: 'Several days' },
      { value: 2, label: 'More than half the days' },
      { value: 3, label: 'Nearly every day' },
    ]);
    expect(INSTRUMENTS.gad7.scale).toBe(INSTRUMENTS.phq9.scale);
    expect(INSTRUMENTS.k10.scale.map((option) => [option.value, option.label])).toEqual([
      [1, 'None of the time'],
      [2, 'A little of the time'],
      [3, 'Some of the time'],
      [4, 'Most of the time'],
      [5, 'All of the time'],
    ]);
    expect(INSTRUMENTS.who5.scale.map((option) => option.value)).toEqual([5, 4, 3, 2, 1, 0]);
    expect(INSTRUMENTS.asq.scale.map((option) => option.label)).toEqual(['Yes', 'No']);
  });

  it('carries the licence lines the publishers ask for', () => {
    expect(INSTRUMENTS.phq9.licence).toContain(
      'No permission required to reproduce, translate, display or distribute.',
    );
    expect(INSTRUMENTS.gad7.licence).toBe(INSTRUMENTS.phq9.licence);
    expect(INSTRUMENTS.k10.licence).toBe('© World Health Organization 2003');
    expect(INSTRUMENTS.who5.licence).toContain('Psychiatric Research Unit');
    expect(INSTRUMENTS.asq.licence).toBeNull();
  });

  it('asks the ASQ questions in the NIMH wording, question 5 only as the acuity question', () => {
    expect(INSTRUMENTS.asq.items.map((item) => item.text)).toEqual([
      'In the past few weeks, have you wished you were dead?',
      'In the past few weeks, have you felt that you or your family would be better off if you were dead?',
      'In the past week, have you been having thoughts about killing yourself?',
      'Have you ever tried to kill yourself?',
    ]);
    expect(INSTRUMENTS.asq.conditionalItems.map((item) => item.text)).toEqual([
      'Are you having thoughts of killing yourself right now?',
    ]);
  });

  it('lets only the ASQ be declined', () => {
    for (const id of INSTRUMENT_IDS) {
      const declinable = allItems(INSTRUMENTS[id]).some((item) => item.declinable);
      expect(declinable).toBe(id === 'asq');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { moveChanges } from './blockMove';

/** Applies the changes and sorts as the server lists questions: by order, then id. */
function listAfter(list: { id: number; order: number }[], changes: ReturnType<typeof moveChanges>) {
  const orders = new Map(list.map((entry) => [entry.id, entry.order]));
  for (const change of changes) orders.set(change.questionId, change.order);
  return [...orders.entries()].sort(([a, orderA], [b, orderB]) => orderA - orderB || a - b).map(([id]) => id);
}

describe('moving a block one place', () => {
  const list = [
    { id: 1, order: 1 },
    { id: 2, order: 2 },
    { id: 9, order: 20 },
    { id: 10, order: 21 },
  ];

  it('swaps orders with the neighbour above or below', () => {
    expect(moveChanges(list, 9, 'up')).toEqual([
      { questionId: 9, order: 2 },
      { questionId: 2, order: 20 },
    ]);
    expect(listAfter(list, moveChanges(list, 9, 'up'))).toEqual([1, 9, 2, 10]);
    expect(listAfter(list, moveChanges(list, 9, 'down'))).toEqual([1, 2, 10, 9]);
  });

  it('changes nothing at either end', () => {
    expect(moveChanges(list, 1, 'up')).toEqual([]);
    expect(moveChanges(list, 10, 'down')).toEqual([]);
    expect(moveChanges(list, 404, 'up')).toEqual([]);
  });

  it('steps past a neighbour of the same order, at the first place too', () => {
    const tied = [
      { id: 3, order: 5 },
      { id: 7, order: 5 },
    ];
    expect(listAfter(tied, moveChanges(tied, 7, 'up'))).toEqual([7, 3]);
    expect(listAfter(tied, moveChanges(tied, 3, 'down'))).toEqual([7, 3]);
    const first = [
      { id: 3, order: 1 },
      { id: 7, order: 1 },
    ];
    expect(listAfter(first, moveChanges(first, 7, 'up'))).toEqual([7, 3]);
    expect(moveChanges(first, 7, 'up').every((change) => change.order >= 1)).toBe(true);
  });
});

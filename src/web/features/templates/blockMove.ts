/**
 * Moving a question (an instrument block as a whole) one place up or down the template's list.
 * The list is sorted by order, then by id; the server changes one question's order per request,
 * so a move is the orders to send: swapped with the neighbour when they differ, and when they
 * are the same (ties keep the older question first) the moving one steps past it by one.
 */

export type MoveDirection = 'up' | 'down';

interface Entry {
  readonly id: number;
  readonly order: number;
}

export interface OrderChange {
  readonly questionId: number;
  readonly order: number;
}

export function moveChanges(
  list: readonly Entry[],
  questionId: number,
  direction: MoveDirection,
): OrderChange[] {
  const index = list.findIndex((entry) => entry.id === questionId);
  const moving = list[index];
  const neighbour = list[direction === 'up' ? index - 1 : index + 1];
  if (!moving || !neighbour) return [];
  if (moving.order !== neighbour.order) {
    return [
      { questionId: moving.id, order: neighbour.order },
      { questionId: neighbour.id, order: moving.order },
    ];
  }
  if (direction === 'down') return [{ questionId: moving.id, order: moving.order + 1 }];
  // Up past a tie: one below it, or, at the first place, the neighbour one down instead.
  return moving.order > 1
    ? [{ questionId: moving.id, order: moving.order - 1 }]
    : [{ questionId: neighbour.id, order: neighbour.order + 1 }];
}

/**
 * Runs `work` while counting the turns the event loop gives other work meanwhile: a task that
 * asks for the next turn each time it gets one, as a waiting request or timer would. A loop that
 * never lets the event loop turn leaves it at none until the work is through.
 */
export async function turnsTakenDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let working = true;
  const takeTurn = () => {
    turns += 1;
    if (working) setImmediate(takeTurn);
  };
  setImmediate(takeTurn);
  try {
    const result = await work();
    return { result, turns };
  } finally {
    working = false;
  }
}

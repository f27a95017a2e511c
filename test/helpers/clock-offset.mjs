// Loaded with `node --import` into a server process: its clock runs TEST_CLOCK_OFFSET_MS ahead
// (or behind), as a machine whose clock has drifted.
const offset = Number(process.env.TEST_CLOCK_OFFSET_MS ?? 0);
if (offset !== 0) {
  const RealDate = Date;
  const realNow = RealDate.now;
  class OffsetDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + offset);
      else super(...args);
    }
    static now() {
      return realNow() + offset;
    }
  }
  globalThis.Date = OffsetDate;
}

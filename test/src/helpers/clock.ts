/**
 * A clock a test moves by hand, given to a server as its `clock`: schedules, deadlines and pings then run on
 * test time, and a test of a day's schedule takes no real minutes.
 */
export class TestClock {
  constructor(public now: number = Date.parse('2027-03-27T12:00:00.000Z')) {}

  /** The function a server's config takes. */
  readonly read = (): number => this.now;

  advance(ms: number): number {
    this.now += ms;
    return this.now;
  }

  set(iso: string): number {
    this.now = Date.parse(iso);
    return this.now;
  }
}

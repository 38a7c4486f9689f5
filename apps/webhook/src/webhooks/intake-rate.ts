/**
 * Whether deliveries are arriving in a burst: the rate over the current window, or the last one
 * if the current has only just begun, at or above `burstPerSecond`. A window with no delivery at
 * all ends the burst.
 */
export class IntakeRate {
  private windowStart = 0;
  private count = 0;
  private previousRate = 0;

  constructor(
    private readonly burstPerSecond: number,
    private readonly windowMs = 250,
    private readonly now: () => number = Date.now,
  ) {}

  note(): void {
    this.roll();
    this.count++;
  }

  inBurst(): boolean {
    this.roll();
    const elapsed = Math.max(1, this.now() - this.windowStart);
    const current = (this.count * 1000) / Math.max(elapsed, this.windowMs / 4);
    return Math.max(current, this.previousRate) >= this.burstPerSecond;
  }

  private roll(): void {
    const now = this.now();
    const elapsed = now - this.windowStart;
    if (elapsed < this.windowMs) return;
    // A gap longer than a window means nothing arrived in between.
    this.previousRate = elapsed < 2 * this.windowMs ? (this.count * 1000) / elapsed : 0;
    this.windowStart = now;
    this.count = 0;
  }
}

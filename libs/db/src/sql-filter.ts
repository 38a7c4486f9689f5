/**
 * The WHERE clause of a list query, built from the filters a caller gave: each condition is
 * written with `?` for its values, which become numbered parameters (`$1`, `$2`, …), so values
 * are always bound, never interpolated.
 */
export class SqlFilter {
  readonly params: unknown[] = [];
  private readonly conditions: string[] = [];

  /** Adds a condition; every `?` in it is bound, in order, to the values given. */
  add(condition: string, ...values: unknown[]): this {
    let next = 0;
    const sql = condition.replace(/\?/g, () => {
      if (next >= values.length) throw new Error(`SqlFilter: more ? than values in '${condition}'`);
      return this.param(values[next++]);
    });
    if (next !== values.length) throw new Error(`SqlFilter: more values than ? in '${condition}'`);
    this.conditions.push(sql);
    return this;
  }

  /** Binds one more value (e.g. the LIMIT) and returns its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** `where a and b`, or nothing when no filter was given. */
  get where(): string {
    return this.conditions.length ? `where ${this.conditions.join(' and ')}` : '';
  }
}

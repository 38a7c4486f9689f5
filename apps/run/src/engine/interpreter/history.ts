import type { StepRecord } from '../execution.records.js';

/** What was recorded for each step path on earlier runs of this execution. */
export class History {
  private readonly byPath = new Map<string, StepRecord[]>();

  constructor(records: StepRecord[]) {
    for (const r of records) {
      const list = this.byPath.get(r.path) ?? [];
      list.push(r);
      this.byPath.set(r.path, list);
    }
  }

  done(path: string): StepRecord | undefined {
    return this.byPath.get(path)?.find((r) => r.status === 'succeeded' || r.status === 'skipped');
  }

  finalFailure(path: string): StepRecord | undefined {
    return this.byPath.get(path)?.find((r) => r.status === 'failed' && r.error?.final);
  }

  failedAttempts(path: string): number {
    return this.byPath.get(path)?.filter((r) => r.status === 'failed').length ?? 0;
  }

  waiting(path: string): StepRecord | undefined {
    return this.byPath.get(path)?.find((r) => r.status === 'waiting');
  }

  /**
   * The `set` steps that succeeded inside the step at `path` (a finished loop, branch or parallel),
   * in the order they ran, so a replay that does not go into it still stores their values.
   */
  setsWithin(path: string): StepRecord[] {
    const prefix = `${path}/`;
    const sets: StepRecord[] = [];
    for (const [recorded, list] of this.byPath) {
      if (!recorded.startsWith(prefix)) continue;
      for (const r of list) if (r.type === 'set' && r.status === 'succeeded') sets.push(r);
    }
    return sets.sort((a, b) => new Date(a.finished_at ?? 0).getTime() - new Date(b.finished_at ?? 0).getTime());
  }

  /**
   * The branch of a condition or switch at `path` that an earlier run already went into (a step
   * inside it was recorded), so a replay takes it again even if its expression would now decide
   * otherwise ($now(), a changed secret). With nothing recorded inside, deciding again is safe.
   */
  branchTaken(path: string): string | undefined {
    const prefix = `${path}/`;
    for (const recorded of this.byPath.keys()) {
      if (recorded.startsWith(prefix)) return recorded.slice(prefix.length).split('/')[0];
    }
    return undefined;
  }
}

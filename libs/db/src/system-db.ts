import type { DataSource, EntityManager } from 'typeorm';

export type SystemLog = (message: string, fields: Record<string, unknown>, level: 'info' | 'debug') => void;

/**
 * The explicit path for work that must cross tenants (signup, the scheduler scanning due
 * schedules, billing runs). It connects as the system role, which bypasses RLS, so every use
 * names its reason and is logged: a grep for SystemDb finds every cross-tenant query.
 */
export class SystemDb {
  private initializing?: Promise<DataSource>;

  constructor(
    private readonly factory: () => DataSource,
    private readonly log: SystemLog,
  ) {}

  /** `level: 'debug'` for hot paths (key verification) whose every call would flood the log. */
  async run<T>(reason: string, work: (manager: EntityManager) => Promise<T>, level: 'info' | 'debug' = 'info'): Promise<T> {
    return (await this.access('run', reason, level)).transaction(work);
  }

  /**
   * One statement in PostgreSQL's own implicit transaction: no BEGIN and COMMIT, one round trip
   * instead of three. Only for `work` that sends a single statement (a batch delete); anything
   * that reads then writes goes through `run`.
   */
  async statement<T>(reason: string, work: (manager: EntityManager) => Promise<T>, level: 'info' | 'debug' = 'info'): Promise<T> {
    return work((await this.access('statement', reason, level)).manager);
  }

  async close(): Promise<void> {
    if (!this.initializing) return;
    const dataSource = await this.initializing.catch(() => undefined);
    if (dataSource?.isInitialized) await dataSource.destroy();
  }

  /** Every access names its reason and is logged before it reaches the database. */
  private async access(method: 'run' | 'statement', reason: string, level: 'info' | 'debug'): Promise<DataSource> {
    if (!reason.trim()) throw new Error(`SystemDb.${method} needs a reason`);
    const dataSource = await this.dataSource();
    this.log('system database access', { reason }, level);
    return dataSource;
  }

  /** Opened on first use: most services never cross tenants and need no second pool. */
  private dataSource(): Promise<DataSource> {
    this.initializing ??= this.factory().initialize();
    return this.initializing;
  }
}

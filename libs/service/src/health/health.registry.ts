/** A check may describe what it found (a mode chosen at start, a version): shown as `details`. */
export type HealthCheck = () => Promise<void | Record<string, unknown>>;

export interface ComponentHealth {
  status: 'UP' | 'DOWN';
  latency_ms: number;
  error?: string;
  details?: Record<string, unknown>;
}

export interface HealthReport {
  status: 'UP' | 'DOWN';
  service: string;
  components: Record<string, ComponentHealth>;
}

/** Named checks a service's health is made of; features may add their own. */
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();

  constructor(
    private readonly service: string,
    private readonly timeoutMs = 2000,
  ) {}

  register(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  async report(): Promise<HealthReport> {
    const entries = await Promise.all([...this.checks].map(async ([name, check]) => [name, await this.run(name, check)] as const));
    const components = Object.fromEntries(entries);
    const status = entries.every(([, c]) => c.status === 'UP') ? 'UP' : 'DOWN';
    return { status, service: this.service, components };
  }

  private async run(name: string, check: HealthCheck): Promise<ComponentHealth> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const details = (await Promise.race([
        check(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`${name} check timed out`)), this.timeoutMs);
        }),
      ])) as void | Record<string, unknown>;
      const latency_ms = Math.round((performance.now() - started) * 100) / 100;
      return details && typeof details === 'object' ? { status: 'UP', latency_ms, details } : { status: 'UP', latency_ms };
    } catch (error) {
      return { status: 'DOWN', latency_ms: Math.round(performance.now() - started), error: `${name} unreachable` };
    } finally {
      clearTimeout(timer);
    }
  }
}

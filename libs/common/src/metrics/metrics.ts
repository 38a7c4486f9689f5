import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Aggregator, type MetricObjectWithValues, type MetricValue } from 'prom-client';

/**
 * The process's Prometheus series, in one registry. Each layer declares its own series beside the
 * code it measures (`*.metrics.ts`) with the factories below, so every series name is declared
 * once and checked against the label rule (labelValue) in one place.
 *
 * METRICS_ENABLED=false turns them off: no server, no default metrics, no HTTP middleware, and
 * the record functions of the hot paths return at their first check.
 */
export const metricsRegistry = new Registry();

let enabled = false;
let started = false;

/** Switched on once at start-up when METRICS_ENABLED (the default); `service` becomes a label of every series. */
export function enableMetrics(service: string, options: { defaults?: boolean } = {}): void {
  enabled = true;
  if (started) return;
  started = true;
  metricsRegistry.setDefaultLabels({ service });
  // Event-loop lag, heap, GC, CPU and handles: prom-client's own collectors (a histogram of the
  // loop's delay sampled by perf_hooks every 10 ms, which costs next to nothing).
  if (options.defaults !== false) collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 20 });
}

export function metricsEnabled(): boolean {
  return enabled;
}

/** Seconds-scale buckets for requests and runs: 2.5 ms to 60 s. */
export const LATENCY_BUCKETS = [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

interface SeriesSpec<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
  /** How a worker thread's values join the process's (metrics.server.ts): sum unless said. */
  aggregator?: Aggregator;
}

/** Declares a counter on the process's registry; declaring a name twice answers the first one (a module loaded twice, tests). */
export function counter<L extends string = never>(spec: SeriesSpec<L>): Counter<L> {
  return (
    (metricsRegistry.getSingleMetric(spec.name) as Counter<L> | undefined) ??
    new Counter<L>({ ...spec, labelNames: spec.labelNames ?? [], registers: [metricsRegistry] })
  );
}

export function gauge<L extends string = never>(spec: SeriesSpec<L> & { collect?: (this: Gauge<L>) => void | Promise<void> }): Gauge<L> {
  return (
    (metricsRegistry.getSingleMetric(spec.name) as Gauge<L> | undefined) ??
    new Gauge<L>({ ...spec, labelNames: spec.labelNames ?? [], registers: [metricsRegistry] })
  );
}

export function histogram<L extends string = never>(spec: SeriesSpec<L> & { buckets?: number[] }): Histogram<L> {
  return (
    (metricsRegistry.getSingleMetric(spec.name) as Histogram<L> | undefined) ??
    new Histogram<L>({ buckets: LATENCY_BUCKETS, ...spec, labelNames: spec.labelNames ?? [], registers: [metricsRegistry] })
  );
}

/**
 * The label rule: a label value is a word from a bounded vocabulary (a status, an outcome, a
 * route template, a subject template), never an id, a tenant, an address or free text. These
 * shapes are what ids and free text look like; `labelProblems` names every value that has one.
 */
const UNBOUNDED_SHAPES: readonly [string, RegExp][] = [
  ['a UUID', /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i],
  ['a long hex or base64 token', /[A-Za-z0-9_+=-]{33,}/],
  ['a run of 5+ digits (an id, a time)', /\d{5,}/],
  ['an e-mail address', /@[^\s]+\./],
  ['whitespace (free text)', /\s/],
  ['an API key', /sv_(live|test)_/],
];

/** Label names that would carry an identity, whatever their values look like. */
const FORBIDDEN_LABEL_NAMES =
  /(^|_)(tenant|environment|scope|customer|user|key|request|execution|workflow|delivery|notification|document|trace)(_id)?$|_id$|^id$/;

/** Why a label is unbounded, or nothing when it follows the rule. */
export function labelProblems(name: string, value: string): string[] {
  const problems: string[] = [];
  if (FORBIDDEN_LABEL_NAMES.test(name)) problems.push(`label name '${name}' names an identity`);
  for (const [what, shape] of UNBOUNDED_SHAPES) if (shape.test(value)) problems.push(`${name}="${value}" looks like ${what}`);
  if (value.length > 80) problems.push(`${name}="${value.slice(0, 40)}…" is longer than 80 characters`);
  return problems;
}

/** Every label of every series the registry holds now, checked against the rule (tests, and the e2e scrape). */
export async function registryLabelProblems(registry: Registry = metricsRegistry): Promise<string[]> {
  const families: MetricObjectWithValues<MetricValue<string>>[] = await registry.getMetricsAsJSON();
  const problems = new Set<string>();
  for (const family of families) {
    for (const value of family.values) {
      for (const [name, label] of Object.entries(value.labels)) {
        for (const problem of labelProblems(name, String(label))) problems.add(`${family.name}: ${problem}`);
      }
    }
  }
  return [...problems];
}

/** Every label name every declared series has (touched or not), checked against the rule: a unit test per layer calls it. */
export function declaredLabelProblems(registry: Registry = metricsRegistry): string[] {
  const families = registry.getMetricsAsArray() as unknown as { name: string; labelNames?: string[] }[];
  return families.flatMap((f) => (f.labelNames ?? []).flatMap((name) => labelProblems(name, 'word').map((p) => `${f.name}: ${p}`)));
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A request method as a label: the standard ones, and OTHER for anything a client made up. */
export function methodLabel(method: string | undefined): string {
  return method !== undefined && METHODS.has(method) ? method : 'OTHER';
}

/**
 * Children of a labelled series, cached by their joined label values: the hot paths then pay one
 * Map lookup instead of prom-client's sorting and hashing of a label object per observation. At
 * most `limit` distinct children: past it, values fold into `other` rather than growing without end.
 */
export class SeriesCache<C> {
  private readonly children = new Map<string, C>();
  private overflow?: C;

  constructor(
    private readonly make: (values: string[]) => C,
    private readonly limit = 500,
  ) {}

  get(...values: string[]): C {
    const key = values.length === 1 ? values[0] : values.join('\u0000');
    let child = this.children.get(key);
    if (child === undefined) {
      if (this.children.size >= this.limit) return (this.overflow ??= this.make(values.map(() => 'other')));
      child = this.make(values);
      this.children.set(key, child);
    }
    return child;
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { currentRequestContext } from '../context/request-context.js';

/**
 * What a process sends and receives, counted where our db and messaging layers send it:
 * - `db.roundTrips`: queries sent to PostgreSQL and answered (one per pg `query` call);
 * - `db.statements`: the statements in them (a multi-statement text counts each);
 * - `nats.publishes`: core NATS events published (fire and forget);
 * - `nats.requests`: core NATS requests sent (a round trip each);
 * - `nats.received`: requests and events this process's handlers took;
 * - `js.publishes`: JetStream publishes (a round trip each: the stream's ack);
 * - `js.deliveries`: JetStream messages consumed;
 * - `js.acks`: acknowledgements of consumed messages (ack, nak);
 * - `redis.commands`: Redis commands sent (the gateway's rate-limit windows);
 * - `http.upstream`: requests the gateway forwarded to a service.
 */
export const IO_COUNTERS = [
  'db.roundTrips',
  'db.statements',
  'nats.publishes',
  'nats.requests',
  'nats.received',
  'js.publishes',
  'js.deliveries',
  'js.acks',
  'redis.commands',
  'http.upstream',
] as const;

export type IoCounter = (typeof IO_COUNTERS)[number];
export type IoCounts = Partial<Record<IoCounter, number>>;

/** What `/actuator/io-counters` answers. */
export interface IoCountsReport {
  /** Everything since start-up. */
  total: IoCounts;
  /** Work done outside any request (reconcilers, sweeps, relays, pollers). */
  background: IoCounts;
  /** Per request id, for the ids asked for (`?request_id_prefix=`): the work each request caused here. */
  requests: Record<string, IoCounts>;
}

/** Requests remembered at most: the oldest are forgotten first, so a long test run stays bounded. */
const MAX_REQUESTS = 20_000;

let enabled = false;
const total: IoCounts = {};
const background: IoCounts = {};
const byRequest = new Map<string, IoCounts>();

/**
 * Switched on once at start-up by PLATFORM_IO_COUNTERS (tests only). Off, every count is a
 * call and one boolean check, and the database pool does not count at all (see createDataSource).
 */
export function enableIoCounters(): void {
  enabled = true;
}

export function ioCountersEnabled(): boolean {
  return enabled;
}

/**
 * Counts `n` of `counter`, for the request being handled (or `requestId` where the caller knows
 * it outside the request's context, e.g. a JetStream ack); outside any request, as background.
 */
export function countIo(counter: IoCounter, n = 1, requestId?: string): void {
  if (!enabled) return;
  add(total, counter, n);
  const id = requestId ?? currentRequestContext()?.requestId;
  if (id === undefined) return add(background, counter, n);
  let counts = byRequest.get(id);
  if (!counts) {
    if (byRequest.size >= MAX_REQUESTS) byRequest.delete(byRequest.keys().next().value!);
    counts = {};
    byRequest.set(id, counts);
  }
  add(counts, counter, n);
}

function add(counts: IoCounts, counter: IoCounter, n: number): void {
  counts[counter] = (counts[counter] ?? 0) + n;
}

/** The counts so far; per request only for ids starting with `prefix` (none without one). */
export function ioCountsReport(prefix?: string): IoCountsReport {
  const requests: Record<string, IoCounts> = {};
  if (prefix) for (const [id, counts] of byRequest) if (id.startsWith(prefix)) requests[id] = { ...counts };
  return { total: { ...total }, background: { ...background }, requests };
}

/**
 * `GET /actuator/io-counters[?request_id_prefix=…]`, mounted only while the counters are on, so it
 * answers 404 in any other deployment. A plain Node handler: the gateway serves it too.
 */
export function ioCountersHandler(req: IncomingMessage, res: ServerResponse): void {
  const prefix = new URL(req.url ?? '/', 'http://localhost').searchParams.get('request_id_prefix') ?? undefined;
  res.statusCode = 200;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(ioCountsReport(prefix)));
}

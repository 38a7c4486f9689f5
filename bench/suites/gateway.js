// Issue 2: what the gateway adds. GET /actuator/health of one service, directly and through the
// gateway's proxy path: latency with nothing queued (1 client, µs resolution), then throughput
// under saturating load from autocannon.
import { latency, load, progress, row } from '../harness.js';

export const name = 'gateway';
export const services = ['catalog'];

export async function run({ platform, duration, connections }) {
  const direct = `${platform.serviceUrls.catalog}/actuator/health`;
  const proxied = `${platform.gatewayUrl}/actuator/health/catalog`;
  progress('warming up');
  await load(direct, { duration: 2, connections });
  await load(proxied, { duration: 2, connections });
  progress(`latency, 1 client, ${duration} s each`);
  const dl = await latency(direct, { duration });
  const gl = await latency(proxied, { duration });
  progress(`throughput, ${connections} connections, ${duration} s each`);
  const dt = await load(direct, { duration, connections });
  const gt = await load(proxied, { duration, connections });
  return [
    row('health direct, 1 client', dl),
    row('health via gateway, 1 client', gl),
    row(`health direct, ${connections} connections`, dt),
    row(`health via gateway, ${connections} connections`, gt),
    `gateway adds ${(gl.p50 - dl.p50).toFixed(3)} ms at p50 and ${(gl.p99 - dl.p99).toFixed(3)} ms at p99 unloaded (target < 1 ms at p50); ` +
      `keeps ${((gt.rps / dt.rps) * 100).toFixed(1)}% of direct throughput under load (target ≥ 70%)`,
  ];
}

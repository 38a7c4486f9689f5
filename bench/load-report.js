// What every autocannon load script prints: one JSON line with throughput, latency percentiles
// in milliseconds and the answers by status class, read by bench/harness.js.
export function printLoadResult(result) {
  const codes = Object.fromEntries(Object.entries(result).filter(([k, v]) => /^\dxx$/.test(k) && v));
  console.log(
    JSON.stringify({
      rps: result.requests.average,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      codes,
      total: result.requests.total,
    }),
  );
}

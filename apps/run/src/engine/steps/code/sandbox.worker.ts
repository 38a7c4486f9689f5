import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { EPILOGUE_MEMORY_BYTES, runInSandbox } from './sandbox.js';
import { SandboxModule } from './sandbox-module.js';
import type { WorkerMessage, WorkerRequest, WorkerSetup } from './sandbox.protocol.js';

/**
 * A sandbox worker thread: loads the QuickJS WASM module once (the slow part), into a memory
 * capped at the memory limit (see SandboxModule), then runs one script at a time. Scripts run
 * here rather than on the service's event loop so that a busy script does not stall every other
 * execution, and so that this thread's large native stack (see SandboxPool) keeps QuickJS's own
 * stack limit the one that trips.
 */
const port = parentPort;
if (!port) throw new Error('sandbox.worker must run in a worker thread');

const { memoryLimitBytes } = workerData as WorkerSetup;
const sandbox = await SandboxModule.load(memoryLimitBytes + EPILOGUE_MEMORY_BYTES);
// This thread's loop delay, reported with each answer (the pool keeps the worst for the scrape):
// perf_hooks directly, since this thread loads nothing of the service's.
const loopDelay = monitorEventLoopDelay({ resolution: 20 });
loopDelay.enable();
// A script holds this loop for as long as it runs, and that hold is the delay that matters here.
// The sampler alone misses it: it records a hold only when its timer fires after it, and the reset
// that goes with each answer, taken right after the script, forgets the time the timer started
// from, so the next sample never sees the hold. The answer therefore carries the script's own
// run time too, and reports the worse of the two.
let longestHoldSeconds = 0;

function takeLoopDelay(): number | undefined {
  const sampled = loopDelay.count === 0 ? undefined : loopDelay.percentile(99) / 1e9;
  if (sampled !== undefined) loopDelay.reset();
  const seconds = Math.max(sampled ?? 0, longestHoldSeconds);
  longestHoldSeconds = 0;
  return sampled === undefined && seconds === 0 ? undefined : seconds;
}

port.on('message', (request: WorkerRequest) => {
  const cancelled = new Int32Array(request.cancel);
  const started = performance.now();
  const result = runInSandbox(sandbox, request.job, {
    log: (level, message) => port.postMessage({ type: 'log', id: request.id, level, message } satisfies WorkerMessage),
    cancelled: () => Atomics.load(cancelled, 0) !== 0,
  });
  longestHoldSeconds = Math.max(longestHoldSeconds, (performance.now() - started) / 1000);
  port.postMessage({ type: 'done', id: request.id, result, grownBytes: sandbox.grownBytes(), loopDelaySeconds: takeLoopDelay() } satisfies WorkerMessage);
});
port.postMessage({ type: 'ready' } satisfies WorkerMessage);

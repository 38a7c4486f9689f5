import { context, trace } from '@opentelemetry/api';

type Query = (this: unknown, ...args: unknown[]) => unknown;
type QueryPatch = (original: Query) => Query;
interface PgInstrumentationPatches {
  _getClientQueryPatch?: () => QueryPatch;
}

/**
 * The pg instrumentation, made to leave alone a query whose active span records nothing. With
 * `requireParentSpan` it skips only a query with no span at all; under a span of an unsampled trace
 * it still builds the query's attributes, parses its operation, asks for a span (the parent comes
 * back, unsampled-parents.ts), wraps its callback or promise and times it, all for nothing kept.
 * Used where the sampler follows the parent, as startTracing does: there a query under an
 * unsampled span could never be sampled itself.
 *
 * instrumentation-pg has no option for this, so the method that makes its `Client.prototype.query`
 * patch is wrapped (it is called when pg is loaded, after this). Should an upgrade rename it,
 * this throws at start-up rather than quietly tracing every query again
 * (libs/db/test/pg-spans.int-spec.ts).
 */
export function recordingParentsOnly<I extends object>(instrumentation: I): I {
  const patches = instrumentation as PgInstrumentationPatches;
  const makePatch = patches._getClientQueryPatch;
  if (typeof makePatch !== 'function') {
    throw new Error('@opentelemetry/instrumentation-pg no longer has _getClientQueryPatch: see libs/common/src/telemetry/pg-spans.ts');
  }
  patches._getClientQueryPatch = function (this: unknown): QueryPatch {
    const patch = makePatch.call(this);
    return (original) => {
      const traced = patch(original);
      return function query(this: unknown, ...args: unknown[]): unknown {
        return trace.getSpan(context.active())?.isRecording() ? traced.apply(this, args) : original.apply(this, args);
      };
    };
  };
  return instrumentation;
}

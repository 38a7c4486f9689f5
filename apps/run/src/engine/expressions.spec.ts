import { describe, expect, it } from '@jest/globals';
import { ExpressionError, evaluate } from './expressions.js';

async function failure(source: string): Promise<{ error: ExpressionError; ms: number }> {
  const started = Date.now();
  try {
    await evaluate(`{% ${source} %}`, { input: {} }, 'input.value');
  } catch (error) {
    return { error: error as ExpressionError, ms: Date.now() - started };
  }
  throw new Error(`${source} did not fail`);
}

describe('expression limits', () => {
  it('evaluates ordinary expressions, recursion and large sequences within the limits', async () => {
    expect(await evaluate('{% ( $f := function($n){ $n = 0 ? 0 : 1 + $f($n - 1) }; $f(100) ) %}', {})).toBe(100);
    expect(await evaluate('{% $count([1..500000]) %}', {})).toBe(500000);
    expect(await evaluate({ a: '{% input.x * 2 %}', b: 'literal' }, { input: { x: 21 } })).toEqual({ a: 42, b: 'literal' });
  });

  it('stops an endless loop after its time, naming the path', async () => {
    const { error, ms } = await failure('( $f := function($n){ $f($n + 1) }; $f(0) )');
    expect(error).toBeInstanceOf(ExpressionError);
    expect(error.message).toMatch(/^input\.value: Evaluation timeout after 1000 milliseconds/);
    // Stopped by the limit, not run on: a generous multiple of it, since a loaded machine delays the check.
    expect(ms).toBeLessThan(10_000);
  });

  it('lets timers and I/O run while a long expression evaluates', async () => {
    let ticked = 0;
    const timer = setInterval(() => ticked++, 20);
    try {
      await failure('( $f := function($n){ $f($n + 1) }; $f(0) )');
    } finally {
      clearInterval(timer);
    }
    // Blocked for the whole second, the timer could fire at most once; a loaded machine may still delay it many times.
    expect(ticked).toBeGreaterThan(1);
  });

  it('stops runaway recursion and oversized sequences', async () => {
    // The depth limit, not the time limit: on a machine so loaded that 1,000 frames take longer
    // than the second an expression may run, the timeout wins that attempt; a few attempts get one.
    let message = '';
    for (let attempt = 0; attempt < 4 && !/Stack overflow/.test(message); attempt++) {
      message = (await failure('( $f := function($n){ $n = 0 ? 0 : 1 + $f($n - 1) }; $f(100000) )')).error.message;
    }
    expect(message).toMatch(/Stack overflow/);
    expect((await failure('$count([1..2000000])')).error.message).toMatch(/maximum sequence length/);
  });
});

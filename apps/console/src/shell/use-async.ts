import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { describeError } from './errors';

export interface AsyncState<T> {
  value: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/**
 * One value loaded from the API, loaded again when `key` changes or on `reload()`. The value
 * read last stays while the next load runs (live polling redraws without a flash).
 */
export function useAsync<T>(load: () => Promise<T>, key: string): AsyncState<T> {
  const [generation, setGeneration] = useState(0);
  const ticket = `${key}#${generation}`;
  const [result, setResult] = useState<{ ticket: string; value: T | undefined; error: string | null }>();
  const start = useEffectEvent(load);
  useEffect(() => {
    let live = true;
    start().then(
      (value) => live && setResult({ ticket, value, error: null }),
      (e: unknown) => live && setResult((before) => ({ ticket, value: before?.value, error: describeError(e) })),
    );
    return () => {
      live = false;
    };
  }, [ticket]);
  return {
    value: result?.value,
    error: result?.error ?? null,
    loading: result?.ticket !== ticket,
    reload: useCallback(() => setGeneration((g) => g + 1), []),
  };
}

/** An action's state: busy while it runs, its error after. */
export function useAction(): { busy: boolean; error: string | null; run: (action: () => Promise<unknown>) => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback((action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    action().then(
      () => setBusy(false),
      (e: unknown) => {
        setError(describeError(e));
        setBusy(false);
      },
    );
  }, []);
  return { busy, error, run };
}

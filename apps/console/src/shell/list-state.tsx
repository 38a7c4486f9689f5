import type { ReactNode } from 'react';
import type { PagedState } from './use-paged';

/** Loading, error and empty states of a paged list, then the list and its "Load more". */
export function ListState<T>({ state, empty, children }: { state: PagedState<T>; empty: ReactNode; children: ReactNode }) {
  if (state.error && state.items.length === 0) return <ErrorMessage message={state.error} retry={state.reload} />;
  if (state.loading && state.items.length === 0) return <Loading />;
  if (state.items.length === 0) return <p className="empty">{empty}</p>;
  return (
    <>
      {children}
      {state.error && <ErrorMessage message={state.error} retry={state.loadMore} />}
      {state.hasMore && (
        <button type="button" className="secondary" onClick={state.loadMore} disabled={state.loading}>
          {state.loading ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status">
      {label}
    </p>
  );
}

export function ErrorMessage({ message, retry }: { message: string; retry?: () => void }) {
  return (
    <div className="error" role="alert">
      <span>{message}</span>
      {retry && (
        <button type="button" className="secondary" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">—</span>;
  return <time dateTime={at}>{new Date(at).toLocaleString()}</time>;
}

export function Json({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

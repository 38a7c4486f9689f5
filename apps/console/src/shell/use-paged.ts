import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import type { Page, Paginated } from '@platform-sdk/client';
import { describeError } from './errors';

export interface PagedState<T> {
  items: T[];
  loading: boolean;
  error: string | null;
  /** Set while the list has more pages (`next_cursor`). */
  hasMore: boolean;
  loadMore: () => void;
  reload: () => void;
}

export const PAGE_SIZE = 25;

/** The first page of a list from `cursor`: the SDK's lists fetch pages lazily, so this costs one call. */
export async function onePage<T>(list: Paginated<T>): Promise<Page<T>> {
  const next = await list.pages().next();
  return next.done ? { data: [], next_cursor: null } : next.value;
}

interface Loaded<T> {
  ticket: string;
  items: T[];
  cursor: string | null;
  error: string | null;
}

/**
 * A list read page by page through `next_cursor`: `load(cursor)` gives one page. `key` names the
 * query (its filters): when it changes, the list starts over, and answers to the old query are dropped.
 */
export function usePaged<T>(load: (cursor: string | undefined) => Promise<Page<T>>, key: string): PagedState<T> {
  const [generation, setGeneration] = useState(0);
  const ticket = `${key}#${generation}`;
  const [list, setList] = useState<Loaded<T>>();
  const [loadingMore, setLoadingMore] = useState(false);
  const first = useEffectEvent(() => load(undefined));

  useEffect(() => {
    let live = true;
    first().then(
      (page) => live && setList({ ticket, items: page.data, cursor: page.next_cursor, error: null }),
      (e: unknown) => live && setList({ ticket, items: [], cursor: null, error: describeError(e) }),
    );
    return () => {
      live = false;
    };
  }, [ticket]);

  const current = list?.ticket === ticket ? list : undefined;
  const loadMore = () => {
    if (!current?.cursor || loadingMore) return;
    setLoadingMore(true);
    load(current.cursor).then(
      (page) => {
        setList((before) =>
          before?.ticket === ticket ? { ...before, items: [...before.items, ...page.data], cursor: page.next_cursor, error: null } : before,
        );
        setLoadingMore(false);
      },
      (e: unknown) => {
        setList((before) => (before?.ticket === ticket ? { ...before, error: describeError(e) } : before));
        setLoadingMore(false);
      },
    );
  };

  return {
    items: current?.items ?? [],
    loading: current === undefined || loadingMore,
    error: current?.error ?? null,
    hasMore: Boolean(current?.cursor),
    loadMore,
    reload: useCallback(() => setGeneration((g) => g + 1), []),
  };
}

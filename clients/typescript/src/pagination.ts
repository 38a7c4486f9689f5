import type { CallOptions } from './transport.js';

/** One page of a list, as every list of the platform answers it. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface ListOptions extends CallOptions {
  /** Items per page (1–200; the platform's default is 50). */
  pageSize?: number;
  /** Start after this cursor instead of at the first page. */
  cursor?: string;
}

export type PageFetcher<T> = (query: { limit?: number; cursor?: string }, options: CallOptions) => Promise<Page<T>>;

/**
 * Every item of a list, page after page, following `next_cursor` until it is null:
 * `for await (const wf of client.workflows.list()) …`. Pages are fetched as the loop reaches
 * them, so breaking out early fetches no more.
 */
export class Paginated<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly options: ListOptions = {},
  ) {}

  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const { pageSize, cursor: first, ...call } = this.options;
    let cursor = first;
    do {
      const page = await this.fetchPage({ limit: pageSize, cursor }, call);
      yield page;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item in one array (at most `max`, when given). */
  async toArray(max = Infinity): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      if (items.length >= max) break;
      items.push(item);
    }
    return items;
  }
}

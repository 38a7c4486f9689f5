import type { EntityManager } from 'typeorm';

export interface ListingRow {
  id: string;
  kind: 'connector' | 'template';
  slug: string;
  name: string;
  description: string;
  publisher: string;
  version: string;
  categories: string[];
  content: Record<string, unknown>;
  installs: number;
  published_at: Date;
}

/** A listing as published: its install count and publication time are the database's. */
export type NewListing = Omit<ListingRow, 'installs' | 'published_at'>;

const COLUMNS = 'id, kind, slug, name, description, publisher, version, categories, content, installs, published_at';

/** catalog.marketplace_listings: platform-wide (no tenant), read and written on the system path. */
export const marketplaceRepository = {
  async upsert(m: EntityManager, l: NewListing): Promise<void> {
    await m.query(
      `insert into catalog.marketplace_listings (id, kind, slug, name, description, publisher, version, categories, content)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict (kind, slug) do update set name = excluded.name, description = excluded.description, publisher = excluded.publisher,
         version = excluded.version, categories = excluded.categories, content = excluded.content
       where catalog.marketplace_listings.version is distinct from excluded.version or catalog.marketplace_listings.content is distinct from excluded.content`,
      [l.id, l.kind, l.slug, l.name, l.description, l.publisher, l.version, l.categories, JSON.stringify(l.content)],
    );
  },

  async list(m: EntityManager, f: { kind?: string; category?: string; q?: string; afterId: string | null; limit: number }): Promise<ListingRow[]> {
    return m.query<ListingRow[]>(
      `select ${COLUMNS} from catalog.marketplace_listings
        where ($1::uuid is null or id > $1) and ($2::text is null or kind = $2) and ($3::text is null or $3 = any(categories))
          and ($5::text is null or strpos(lower(slug || ' ' || name || ' ' || description || ' ' || publisher), lower($5)) > 0)
        order by id limit $4`,
      [f.afterId, f.kind ?? null, f.category ?? null, f.limit + 1, f.q ?? null],
    );
  },

  async get(m: EntityManager, id: string): Promise<ListingRow | undefined> {
    const rows = await m.query<ListingRow[]>(`select ${COLUMNS} from catalog.marketplace_listings where id = $1`, [id]);
    return rows[0];
  },

  async countInstall(m: EntityManager, id: string): Promise<void> {
    await m.query(`update catalog.marketplace_listings set installs = installs + 1 where id = $1`, [id]);
  },
};

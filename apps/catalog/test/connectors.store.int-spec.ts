import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TenantContext } from '@platform/db';
import type { ConnectorDefinition } from '@platform/messaging';
import { storeHarness, type StoreHarness } from '@platform/testing';
import { InstalledConnectors } from '../src/connectors/installed-connectors.js';
import { marketplaceRepository, type ListingRow, type NewListing } from '../src/marketplace/marketplace.repository.js';

/**
 * The catalog's connector writes in PostgreSQL: marketplace listings (platform-wide, on the system
 * path) published and counted, and connectors installed into an environment (tenant rows under
 * row-level security) through the real InstalledConnectors, as the application role.
 */
let h: StoreHarness;
let installed: InstalledConnectors;

beforeAll(async () => {
  h = await storeHarness(['catalog'], 'catalog_store');
  installed = new InstalledConnectors(h.tenantDb);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const definition = (id: string, version: string): ConnectorDefinition => ({ id, name: 'Acme CRM', version, operations: [] }) as unknown as ConnectorDefinition;

function listing(slug: string, overrides: Partial<NewListing> = {}): NewListing {
  return {
    id: randomUUID(),
    kind: 'connector',
    slug,
    name: 'Acme CRM',
    description: 'Contacts and deals',
    publisher: 'Acme',
    version: '1.0.0',
    categories: ['crm'],
    content: { definition: { id: slug, version: '1.0.0' } },
    ...overrides,
  };
}

const publish = (l: NewListing) => h.systemDb.run('test: publish a listing', (m) => marketplaceRepository.upsert(m, l));

async function shelf(slug: string): Promise<ListingRow[]> {
  return (await h.admin.query<ListingRow>(`select * from catalog.marketplace_listings where slug = $1`, [slug])).rows;
}

describe('catalog.marketplace_listings: a listing on the shelf × publishing → what the shelf holds', () => {
  it.each([
    { before: 'no listing', again: null, version: '1.0.0', name: 'Acme CRM', installs: 0 },
    { before: 'the same listing', again: {}, version: '1.0.0', name: 'Acme CRM', installs: 3 },
    { before: 'an older version', again: { version: '1.1.0', name: 'Acme CRM 2' }, version: '1.1.0', name: 'Acme CRM 2', installs: 3 },
    { before: 'the same version, other content', again: { content: { changed: true }, name: 'Renamed' }, version: '1.0.0', name: 'Renamed', installs: 3 },
    { before: 'the same version and content, another name', again: { name: 'Only renamed' }, version: '1.0.0', name: 'Acme CRM', installs: 3 },
  ])('$before, published → version $version, name $name, $installs installs, one row keeping its id', async ({ again, version, name, installs }) => {
    const slug = `crm-${randomUUID().slice(0, 8)}`;
    const first = listing(slug);
    await publish(first);
    if (again) {
      for (let i = 0; i < 3; i++) await h.systemDb.run('test: count an install', (m) => marketplaceRepository.countInstall(m, first.id));
      await publish(listing(slug, again));
    }
    expect(await shelf(slug)).toEqual([expect.objectContaining({ id: first.id, version, name, installs })]);
  });

  it('a connector and a template may share a slug', async () => {
    const slug = `shared-${randomUUID().slice(0, 8)}`;
    await publish(listing(slug));
    await publish(listing(slug, { kind: 'template' }));
    expect((await shelf(slug)).map((r) => r.kind).sort()).toEqual(['connector', 'template']);
  });
});

async function installedRows(ctx: TenantContext): Promise<{ connector_id: string; version: string; listing_id: string | null }[]> {
  return (
    await h.admin.query(`select connector_id, version, listing_id from catalog.installed_connectors where tenant_id = $1 and environment_id = $2`, [
      ctx.tenantId,
      ctx.environmentId,
    ])
  ).rows as { connector_id: string; version: string; listing_id: string | null }[];
}

describe('catalog.installed_connectors: an environment’s connector × install or remove → the row and whether it was new', () => {
  const LISTING = randomUUID();

  it.each([
    { before: null, install: '1.0.0', isNew: true },
    { before: '1.0.0', install: '1.0.0', isNew: false },
    { before: '1.0.0', install: '2.0.0', isNew: false },
    { before: '2.0.0', install: '1.0.0', isNew: false },
  ])('installed $before, install $install → version $install, new: $isNew', async ({ before, install, isNew }) => {
    const ctx = h.tenant();
    if (before) await installed.install(ctx, LISTING, definition('acme-crm', before));
    const firstAt = (await installed.get(ctx, 'acme-crm'))?.installed_at;
    expect(await installed.install(ctx, LISTING, definition('acme-crm', install))).toBe(isNew);
    expect(await installedRows(ctx)).toEqual([{ connector_id: 'acme-crm', version: install, listing_id: LISTING }]);
    const row = await installed.get(ctx, 'acme-crm');
    expect(row?.definition).toMatchObject({ id: 'acme-crm', version: install });
    if (firstAt) expect(row!.installed_at.getTime()).toBeGreaterThanOrEqual(firstAt.getTime());
  });

  it('a custom connector (no listing) replaced by the marketplace one → the listing recorded', async () => {
    const ctx = h.tenant();
    await installed.install(ctx, null, definition('acme-crm', '0.1.0'));
    await installed.install(ctx, LISTING, definition('acme-crm', '1.0.0'));
    expect(await installedRows(ctx)).toEqual([{ connector_id: 'acme-crm', version: '1.0.0', listing_id: LISTING }]);
  });

  it.each([
    { before: 'installed', installedFirst: true, removed: true },
    { before: 'not installed', installedFirst: false, removed: false },
  ])('$before, removed → answered $removed, no row', async ({ installedFirst, removed }) => {
    const ctx = h.tenant();
    if (installedFirst) await installed.install(ctx, LISTING, definition('acme-crm', '1.0.0'));
    expect(await installed.remove(ctx, 'acme-crm')).toBe(removed);
    expect(await installedRows(ctx)).toEqual([]);
  });

  it.each([
    { caller: 'another tenant', make: () => h.tenant() },
    { caller: 'another environment of the tenant', make: (ctx: TenantContext) => ({ ...ctx, environmentId: randomUUID() }) },
  ])('$caller neither sees nor removes the connector; installing the same id makes its own row', async ({ make }) => {
    const ctx = h.tenant();
    await installed.install(ctx, LISTING, definition('acme-crm', '1.0.0'));
    const other = make(ctx);
    expect(await installed.list(other)).toEqual([]);
    expect(await installed.get(other, 'acme-crm')).toBeUndefined();
    expect(await installed.remove(other, 'acme-crm')).toBe(false);
    expect(await installed.install(other, null, definition('acme-crm', '9.9.9'))).toBe(true);
    expect(await installedRows(ctx)).toEqual([{ connector_id: 'acme-crm', version: '1.0.0', listing_id: LISTING }]);
  });

  it('a customer scope reads the environment’s connectors (its runs use them)', async () => {
    const ctx = h.tenant();
    await installed.install(ctx, LISTING, definition('acme-crm', '1.0.0'));
    expect((await installed.list({ ...ctx, scopeId: randomUUID() })).map((c) => c.connector_id)).toEqual(['acme-crm']);
  });
});

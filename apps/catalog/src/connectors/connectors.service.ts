import { Injectable } from '@nestjs/common';
import type { TenantContext } from '@platform/db';
import { decodeCursor, toPage, type Page } from '@platform/common';
import type { ConnectorDefinition } from '@platform/messaging';
import { ConnectorRegistry } from './connector-registry.js';
import { ConnectorErrors } from './connectors.errors.js';
import type { ListConnectorsQueryDto } from './dto/connector.dto.js';
import { InstalledConnectors } from './installed-connectors.js';

export type ConnectorSource = 'built_in' | 'installed';
export type ConnectorSummary = Pick<ConnectorDefinition, 'id' | 'name' | 'version' | 'description' | 'categories' | 'icon' | 'publisher'> & {
  source: ConnectorSource;
  auth_types: string[];
  operation_ids: string[];
};
export type ConnectorView = ConnectorDefinition & ConnectorSummary;

/** The connectors an environment can use: the built-ins, then those installed from the marketplace. */
@Injectable()
export class ConnectorsService {
  constructor(
    private readonly registry: ConnectorRegistry,
    private readonly installed: InstalledConnectors,
  ) {}

  async list(ctx: TenantContext, q: ListConnectorsQueryDto): Promise<Page<ConnectorSummary>> {
    const after = decodeCursor(q.cursor, ['id'] as const);
    const words = (q.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const all = await this.all(ctx);
    const rows = all
      .filter((c) => !q.category || c.categories.includes(q.category))
      .filter((c) => words.every((w) => searchText(c).includes(w)))
      .filter((c) => !after || c.id > String(after.id))
      .slice(0, q.limit + 1);
    return toPage(rows, q.limit, summary, (c) => ({ id: c.id }));
  }

  async get(ctx: TenantContext, id: string): Promise<ConnectorView> {
    const found = (await this.all(ctx)).find((c) => c.id === id);
    if (!found) throw ConnectorErrors.notFound();
    return { ...found, ...summary(found) };
  }

  /** The definition the connection service runs (built-in first: an installed one cannot shadow it). */
  async definition(ctx: TenantContext, id: string): Promise<ConnectorDefinition> {
    const def = this.registry.builtIn(id) ?? (await this.installed.get(ctx, id))?.definition;
    if (!def) throw ConnectorErrors.notFound();
    return def;
  }

  private async all(ctx: TenantContext): Promise<Array<ConnectorDefinition & { source: ConnectorSource }>> {
    const builtIns = this.registry.builtIns().map((d) => ({ ...d, source: 'built_in' as const }));
    const taken = new Set(builtIns.map((d) => d.id));
    const installed = (await this.installed.list(ctx))
      .filter((i) => !taken.has(i.definition.id))
      .map((i) => ({ ...i.definition, source: 'installed' as const }));
    return [...builtIns, ...installed].sort((a, b) => a.id.localeCompare(b.id));
  }
}

function summary(c: ConnectorDefinition & { source: ConnectorSource }): ConnectorSummary {
  return {
    id: c.id,
    name: c.name,
    version: c.version,
    description: c.description,
    categories: c.categories,
    icon: c.icon,
    publisher: c.publisher,
    source: c.source,
    auth_types: c.auth.map((a) => a.type),
    operation_ids: c.operations.map((o) => o.id),
  };
}

function searchText(c: ConnectorDefinition): string {
  return [c.id, c.name, c.description, ...c.operations.map((o) => `${o.id} ${o.name}`)].join(' ').toLowerCase();
}

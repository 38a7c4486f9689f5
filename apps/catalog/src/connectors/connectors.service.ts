import { Injectable } from '@nestjs/common';
import type { TenantContext } from '@platform/db';
import type { Principal } from '@platform/auth';
import { ConflictError, decodeCursor, toPage, ValidationFailedError, type Page } from '@platform/common';
import type { ConnectorDefinition } from '@platform/messaging';
import { ConnectorRegistry } from './connector-registry.js';
import { ConnectorErrors } from './connectors.errors.js';
import { validateDefinition } from './definition.validator.js';
import type { ListConnectorsQueryDto } from './dto/connector.dto.js';
import { InstalledConnectors } from './installed-connectors.js';

export type ConnectorSource = 'built_in' | 'installed' | 'custom';
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
    // Named for this list: another list's cursor ({ id }) is refused, not read as a connector id.
    const after = decodeCursor(q.cursor, { connector: 'text' });
    const words = (q.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const all = await this.all(ctx);
    const rows = all
      .filter((c) => !q.category || c.categories.includes(q.category))
      .filter((c) => words.every((w) => searchText(c).includes(w)))
      .filter((c) => !after || c.id > after.connector)
      .slice(0, q.limit + 1);
    return toPage(rows, q.limit, summary, (c) => ({ connector: c.id }));
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

  /** A tenant's own connector: checked against the definition JSON Schema; a built-in's id is taken. */
  async saveCustom(p: Principal, body: unknown): Promise<ConnectorView> {
    if (p.scopeId) throw ConnectorErrors.customerScoped();
    const problems = validateDefinition(body);
    if (problems.length) throw new ValidationFailedError(problems);
    const def = body as ConnectorDefinition;
    if (this.registry.builtIn(def.id)) throw new ConflictError('connector_exists', `${def.id} is a built-in connector`);
    const existing = await this.installed.get(p, def.id);
    if (existing?.listing_id) throw new ConflictError('connector_exists', `${def.id} is installed from the marketplace`);
    await this.installed.install(p, null, def);
    return this.get(p, def.id);
  }

  /** Removes an installed or custom connector from the environment (built-ins stay). */
  async remove(p: Principal, id: string): Promise<void> {
    if (p.scopeId) throw ConnectorErrors.customerScoped();
    if (this.registry.builtIn(id)) throw new ConflictError('built_in_connector', `${id} is built in and cannot be removed`);
    if (!(await this.installed.remove(p, id))) throw ConnectorErrors.notFound();
  }

  private async all(ctx: TenantContext): Promise<Array<ConnectorDefinition & { source: ConnectorSource }>> {
    const builtIns = this.registry.builtIns().map((d) => ({ ...d, source: 'built_in' as const }));
    const taken = new Set(builtIns.map((d) => d.id));
    const installed = (await this.installed.list(ctx))
      .filter((i) => !taken.has(i.definition.id))
      .map((i) => ({ ...i.definition, source: i.listing_id ? ('installed' as const) : ('custom' as const) }));
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

import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { AppError, decodeCursor, newId, NotFoundError, toPage, type Page } from '@platform/common';
import { SystemDb } from '@platform/db';
import type { ConnectorDefinition } from '@platform/messaging';
import { ConnectorRegistry } from '../connectors/connector-registry.js';
import { ConnectorErrors } from '../connectors/connectors.errors.js';
import { validateDefinition } from '../connectors/definition.validator.js';
import { InstalledConnectors } from '../connectors/installed-connectors.js';
import { BUILT_IN_TEMPLATES } from '../templates/builtin-templates.js';
import { TemplatesService } from '../templates/templates.service.js';
import type { InstallResponseDto, ListingResponseDto, ListMarketplaceQueryDto } from './dto/marketplace.dto.js';
import { marketplaceRepository, type ListingRow, type NewListing } from './marketplace.repository.js';
import { PUBLISHED_CONNECTORS } from './published-connectors.js';

/**
 * The marketplace: connectors and templates published for every tenant, with their install
 * counts. Installing a connector copies its (validated) definition into the environment; installing
 * a template creates its workflow.
 */
@Injectable()
export class MarketplaceService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Marketplace');

  constructor(
    private readonly system: SystemDb,
    private readonly installed: InstalledConnectors,
    private readonly templates: TemplatesService,
    private readonly registry: ConnectorRegistry,
  ) {}

  /** Publishes the platform's listings (every replica; an unchanged listing is left alone). */
  async onApplicationBootstrap(): Promise<void> {
    const listings: NewListing[] = [
      ...PUBLISHED_CONNECTORS.map((def) => {
        const problems = validateDefinition(def);
        if (problems.length) throw new Error(`Marketplace connector ${def.id} is invalid: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`);
        if (this.registry.builtIn(def.id)) throw new Error(`Marketplace connector ${def.id} has the id of a built-in`);
        return listing('connector', def.id, def.name, def.description, def.publisher, def.version, def.categories, def as unknown as Record<string, unknown>);
      }),
      ...BUILT_IN_TEMPLATES.map((t) => listing('template', t.id, t.name, t.description, 'platform', t.version, t.categories, { template_id: t.id })),
    ];
    await this.system.run('publish the platform marketplace listings', async (m) => {
      for (const l of listings) await marketplaceRepository.upsert(m, l);
    });
    this.logger.log(`${listings.length} marketplace listings published`);
  }

  async list(p: Principal, q: ListMarketplaceQueryDto): Promise<Page<ListingResponseDto>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.system.run(
      'browse the marketplace',
      (m) => marketplaceRepository.list(m, { kind: q.kind, category: q.category, q: q.q, afterId: after?.id ?? null, limit: q.limit }),
      'debug',
    );
    const versions = new Map((await this.installed.list(p)).map((i) => [i.connector_id, i.version]));
    return toPage(
      rows,
      q.limit,
      (r) => response(r, r.kind === 'connector' ? (versions.get(r.slug) ?? null) : null),
      (r) => ({ id: r.id }),
    );
  }

  async install(p: Principal, id: string): Promise<InstallResponseDto> {
    const row = await this.system.run('read a marketplace listing', (m) => marketplaceRepository.get(m, id), 'debug');
    if (!row) throw new NotFoundError('Listing');
    let answer: InstallResponseDto;
    let counted = true;
    if (row.kind === 'connector') {
      if (p.scopeId) throw ConnectorErrors.customerScoped();
      const def = row.content as unknown as ConnectorDefinition;
      if (validateDefinition(def).length) throw new AppError('invalid_listing', 409, 'The listed connector definition is not valid');
      counted = await this.installed.install(p, row.id, def);
      answer = { listing_id: row.id, kind: row.kind, connector_id: def.id, version: def.version };
    } else {
      const workflow = await this.templates.instantiate(p, row.slug, {});
      answer = { listing_id: row.id, kind: row.kind, workflow_id: workflow.id };
    }
    // Counted once per environment for connectors (a re-install upgrades), once per workflow for templates.
    if (counted) await this.system.run('count a marketplace install', (m) => marketplaceRepository.countInstall(m, row.id), 'debug');
    return answer;
  }
}

function listing(
  kind: 'connector' | 'template',
  slug: string,
  name: string,
  description: string,
  publisher: string,
  version: string,
  categories: string[],
  content: Record<string, unknown>,
): NewListing {
  return { id: newId(), kind, slug, name, description, publisher, version, categories, content };
}

function response(r: ListingRow, installedVersion: string | null): ListingResponseDto {
  return {
    id: r.id,
    kind: r.kind,
    slug: r.slug,
    name: r.name,
    description: r.description,
    publisher: r.publisher,
    version: r.version,
    categories: r.categories,
    installs: r.installs,
    published_at: r.published_at.toISOString(),
    installed_version: installedVersion,
  };
}

import { Inject, Injectable } from '@nestjs/common';
import type { TenantContext } from '@platform/db';
import { DEFINITION_SOURCE, type DefinitionSource } from '../engine.ports.js';
import type { RunnableDefinition } from '../execution.records.js';

/** Workflow versions are immutable, so a definition read once serves every later run of it. */
@Injectable()
export class DefinitionsCache {
  private readonly entries = new Map<string, RunnableDefinition>();

  constructor(@Inject(DEFINITION_SOURCE) private readonly source: DefinitionSource) {}

  /** Without a query: a fresh run of a cached version needs no transaction before its first step. */
  peek(tenantId: string, workflowId: string, version: number): RunnableDefinition | undefined {
    return this.entries.get(`${tenantId}:${workflowId}:${version}`);
  }

  async get(ctx: TenantContext, workflowId: string, version: number): Promise<RunnableDefinition | undefined> {
    const key = `${ctx.tenantId}:${workflowId}:${version}`;
    const hit = this.entries.get(key);
    if (hit) return hit;
    const definition = await this.source.definition(ctx, workflowId, version);
    if (!definition) return undefined;
    if (this.entries.size > 5000) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, definition);
    return definition;
  }
}

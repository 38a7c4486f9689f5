import { Inject, Injectable } from '@nestjs/common';
import type { TenantContext } from '@platform/db';
import { DEFINITION_SOURCE, type DefinitionSource } from '../engine.ports.js';
import type { RunnableDefinition } from '../execution.records.js';

/** Both maps hold at most this many entries; the oldest goes first. */
const MAX_ENTRIES = 5000;

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** Workflow versions are immutable, so a definition read once serves every later run of it. */
@Injectable()
export class DefinitionsCache {
  private readonly entries = new Map<string, RunnableDefinition>();
  /** The version each workflow's last start here was made from: a guess, checked by the start that relies on it. */
  private readonly current = new Map<string, number>();

  constructor(@Inject(DEFINITION_SOURCE) private readonly source: DefinitionSource) {}

  /** Without a query: a fresh run of a cached version needs no transaction before its first step. */
  peek(tenantId: string, workflowId: string, version: number): RunnableDefinition | undefined {
    return this.entries.get(`${tenantId}:${workflowId}:${version}`);
  }

  /** The cached definition of the version the workflow's last start here ran, if both are known. */
  peekCurrent(tenantId: string, workflowId: string): { version: number; definition: RunnableDefinition } | undefined {
    const version = this.current.get(`${tenantId}:${workflowId}`);
    const definition = version === undefined ? undefined : this.peek(tenantId, workflowId, version);
    return definition && { version: version!, definition };
  }

  /** A start was made from this version: the next start of the workflow may guess it. */
  noteCurrent(tenantId: string, workflowId: string, version: number): void {
    const key = `${tenantId}:${workflowId}`;
    if (this.current.get(key) === version) return;
    remember(this.current, key, version);
  }

  async get(ctx: TenantContext, workflowId: string, version: number): Promise<RunnableDefinition | undefined> {
    const key = `${ctx.tenantId}:${workflowId}:${version}`;
    const hit = this.entries.get(key);
    if (hit) return hit;
    const definition = await this.source.definition(ctx, workflowId, version);
    if (!definition) return undefined;
    remember(this.entries, key, definition);
    return definition;
  }
}

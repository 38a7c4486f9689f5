import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { WorkflowDefinition } from '../workflows/definition/workflow-definition.js';

/** Workflow versions are immutable, so a definition read once serves every later run of it. */
@Injectable()
export class DefinitionsCache {
  private readonly entries = new Map<string, WorkflowDefinition>();

  /** Without a query: a fresh run of a cached version needs no transaction before its first step. */
  peek(tenantId: string, workflowId: string, version: number): WorkflowDefinition | undefined {
    return this.entries.get(`${tenantId}:${workflowId}:${version}`);
  }

  async get(m: EntityManager, tenantId: string, workflowId: string, version: number): Promise<WorkflowDefinition | undefined> {
    const key = `${tenantId}:${workflowId}:${version}`;
    const hit = this.entries.get(key);
    if (hit) return hit;
    const rows = (await m.query(`select definition from run.workflow_versions where workflow_id = $1 and version = $2`, [workflowId, version])) as { definition: WorkflowDefinition }[];
    if (!rows[0]) return undefined;
    if (this.entries.size > 5000) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, rows[0].definition);
    return rows[0].definition;
  }
}

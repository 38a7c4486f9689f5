import { Injectable } from '@nestjs/common';
import type { ConnectorDefinition } from '@platform/messaging';
import { BUILT_IN_CONNECTORS } from './builtins/index.js';
import { validateDefinition } from './definition.validator.js';

/**
 * The built-in connectors, checked once at start-up: a definition that breaks its JSON Schema
 * stops the service with the problem named, instead of failing a customer's run later.
 */
@Injectable()
export class ConnectorRegistry {
  private readonly byId = new Map<string, ConnectorDefinition>();

  constructor() {
    for (const def of BUILT_IN_CONNECTORS) {
      const problems = validateDefinition(def);
      if (problems.length) throw new Error(`Built-in connector ${def.id} is invalid: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`);
      this.byId.set(def.id, def);
    }
  }

  builtIn(id: string): ConnectorDefinition | undefined {
    return this.byId.get(id);
  }

  builtIns(): ConnectorDefinition[] {
    return [...this.byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  }
}

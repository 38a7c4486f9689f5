import { compile, expressionsIn } from './expressions.js';

/**
 * Names of the secrets a definition refers to: in its expressions, `secrets.NAME` and, for names
 * with `.` or `-`, the quoted path forms `` secrets.`db.password` `` and `secrets."stripe-key"`;
 * also `$lookup(secrets, "name")` and `secrets["name"]`. Found in each expression's parsed JSONata
 * tree, so a name in a string literal or a literal value (a `code` step's source) is not one.
 */
export function referencedSecrets(definition: unknown): string[] {
  const names = new Set<string>();
  for (const { source } of expressionsIn(definition, '')) {
    let tree: unknown;
    try {
      tree = compile(source).ast();
    } catch {
      // Not an expression that runs (validation refuses it); a plain reading of its text still counts.
      for (const m of source.matchAll(/secrets\.([A-Za-z0-9_]+)/g)) names.add(m[1]);
      continue;
    }
    collectSecretNames(tree, names, new Set());
  }
  return [...names];
}

interface AstNode {
  type?: string;
  value?: unknown;
  steps?: AstNode[];
  stages?: { type?: string; expr?: AstNode }[];
  arguments?: AstNode[];
  procedure?: AstNode;
}

const isSecrets = (node: AstNode | undefined): boolean => node?.type === 'name' && node.value === 'secrets';
const stringValue = (node: AstNode | undefined): string | undefined => (node?.type === 'string' && typeof node.value === 'string' ? node.value : undefined);

function collectSecretNames(node: unknown, names: Set<string>, seen: Set<object>): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const child of node) collectSecretNames(child, names, seen);
    return;
  }
  const n = node as AstNode;
  if (n.type === 'path' && n.steps && isSecrets(n.steps[0])) {
    // secrets.NAME, secrets.`NAME`, secrets."NAME"
    const next = n.steps[1];
    if (next?.type === 'name' && typeof next.value === 'string') names.add(next.value);
    // secrets["NAME"] (a filter in JSONata, kept as a reference as before)
    for (const stage of n.steps[0].stages ?? []) {
      const name = stage.type === 'filter' ? stringValue(stage.expr) : undefined;
      if (name !== undefined) names.add(name);
    }
  }
  if (n.type === 'function' && n.procedure?.type === 'variable' && n.procedure.value === 'lookup') {
    const [object, key] = n.arguments ?? [];
    const name = stringValue(key);
    if (object?.type === 'path' && object.steps?.length === 1 && isSecrets(object.steps[0]) && name !== undefined) names.add(name);
  }
  for (const child of Object.values(n)) collectSecretNames(child, names, seen);
}

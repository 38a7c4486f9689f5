import type { SyntaxNode, Tree } from '@lezer/common';

const VALUES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);

function values(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) if (VALUES.has(child.name)) out.push(child);
  return out;
}

/**
 * Where a JSON pointer (`/steps/1/type`) lies in the text, from the JSON syntax tree the editor
 * already has: the value it names, or the closest enclosing value when the text does not have it
 * (a required property that is missing points at its object).
 */
export function pointerRange(tree: Tree, text: string, pointer: string): { from: number; to: number } {
  let node: SyntaxNode | undefined = values(tree.topNode)[0];
  if (!node) return { from: 0, to: Math.min(text.length, 1) };
  const segments =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const segment of segments) {
    let next: SyntaxNode | undefined;
    if (node.name === 'Array') next = values(node)[Number(segment)];
    else if (node.name === 'Object') {
      for (let property = node.firstChild; property && !next; property = property.nextSibling) {
        if (property.name !== 'Property') continue;
        const key = property.getChild('PropertyName');
        if (key && safeParse(text.slice(key.from, key.to)) === segment) next = values(property)[0];
      }
    }
    if (!next) break;
    node = next;
  }
  // A whole object or array would cover many lines: its first line is enough to find it.
  const end = node.name === 'Object' || node.name === 'Array' ? Math.min(node.to, node.from + 1) : node.to;
  return { from: node.from, to: end };
}

function safeParse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

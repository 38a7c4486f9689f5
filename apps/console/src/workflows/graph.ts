import dagre from '@dagrejs/dagre';
import type { Edge, Node } from '@xyflow/react';
import type { WorkflowStep } from '@platform-sdk/client';
import { children } from './definition';

export interface StepNodeData extends Record<string, unknown> {
  label: string;
  type: string;
  step: WorkflowStep;
}

export type StepNode = Node<StepNodeData>;

export const NODE_WIDTH = 180;
export const NODE_HEIGHT = 56;

/**
 * The graph of a definition: one node per step (its id is the step's id), an edge from each
 * step to the next in its sequence, and from a control step into each nested sequence, laid
 * out top to bottom by dagre. Pure, so the editor's sync is tested without a browser.
 */
export function toGraph(steps: readonly WorkflowStep[]): { nodes: StepNode[]; edges: Edge[] } {
  const nodes: StepNode[] = [];
  const edges: Edge[] = [];
  const walk = (sequence: readonly WorkflowStep[], from: string | undefined, label: string | undefined): void => {
    let previous = from;
    let edgeLabel = label;
    for (const step of sequence) {
      nodes.push({ id: step.id, position: { x: 0, y: 0 }, data: { label: step.id, type: step.type, step } });
      if (previous !== undefined) {
        edges.push({ id: `${previous}->${step.id}`, source: previous, target: step.id, ...(edgeLabel ? { label: edgeLabel } : {}) });
      }
      for (const child of children(step)) walk(child.steps, step.id, child.label);
      previous = step.id;
      edgeLabel = undefined;
    }
  };
  walk(steps, undefined, undefined);
  return { nodes: layout(nodes, edges), edges };
}

function layout(nodes: StepNode[], edges: Edge[]): StepNode[] {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 40, ranksep: 50 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) g.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of edges) g.setEdge(edge.source, edge.target);
  dagre.layout(g);
  return nodes.map((node) => {
    const { x, y } = g.node(node.id) as { x: number; y: number };
    return { ...node, position: { x: x - NODE_WIDTH / 2, y: y - NODE_HEIGHT / 2 } };
  });
}

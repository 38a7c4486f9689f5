import { useMemo } from 'react';
import { Background, Controls, ReactFlow, type NodeMouseHandler } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { WorkflowStep } from '@platform-sdk/client';
import { toGraph, type StepNode } from './graph';

/** The graph side of the editor: laid out from the steps each time they change, nodes selectable. */
export function StepGraph({ steps, selected, onSelect }: { steps: WorkflowStep[]; selected: string | null; onSelect: (id: string | null) => void }) {
  const graph = useMemo(() => toGraph(steps), [steps]);
  const nodes: StepNode[] = useMemo(
    () =>
      graph.nodes.map((node) => ({
        ...node,
        selected: node.id === selected,
        ariaLabel: `Step ${node.id} (${node.data.type})`,
        data: { ...node.data, label: `${node.id} · ${node.data.type}` },
      })),
    [graph, selected],
  );
  const click: NodeMouseHandler<StepNode> = (_event, node) => onSelect(node.id);
  return (
    <div className="graph-pane" role="region" aria-label="Workflow graph">
      <ReactFlow
        nodes={nodes}
        edges={graph.edges}
        onNodeClick={click}
        onPaneClick={() => onSelect(null)}
        nodesDraggable={false}
        nodesConnectable={false}
        fitView
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}

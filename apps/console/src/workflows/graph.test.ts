import { describe, expect, it } from 'vitest';
import { addStep, moveStep, parseText, removeStep, toText, updateStep, type Definition } from './definition';
import { toGraph } from './graph';

const THREE: Definition = {
  name: 'refund',
  steps: [
    { id: 'prepare', type: 'transform', input: { amount: '{% input.amount %}' } },
    { id: 'approval', type: 'approval', input: { title: 'Refund?' } },
    { id: 'done', type: 'transform', input: { ok: true } },
  ],
};

const ids = (d: Definition) => d.steps.map((s) => s.id);

describe('definition → graph', () => {
  it('has one node per step and an edge between consecutive steps, laid out top to bottom', () => {
    const { nodes, edges } = toGraph(THREE.steps);
    expect(nodes.map((n) => n.id)).toEqual(['prepare', 'approval', 'done']);
    expect(edges.map((e) => [e.source, e.target])).toEqual([
      ['prepare', 'approval'],
      ['approval', 'done'],
    ]);
    const ys = nodes.map((n) => n.position.y);
    expect(ys[0]).toBeLessThan(ys[1]);
    expect(ys[1]).toBeLessThan(ys[2]);
  });

  it('draws what it can of a definition still being typed (a nested sequence that is not an array of steps)', () => {
    const typing = [{ id: 'c', type: 'condition', else: 5, then: [{ id: 'ok', type: 'transform' }, 7], cases: [null] }] as unknown as Definition['steps'];
    const { nodes } = toGraph(typing);
    expect(nodes.map((n) => n.id)).toEqual(['c', 'ok']);
  });

  it('draws nested sequences as labelled edges from their control step', () => {
    const { nodes, edges } = toGraph([
      { id: 'check', type: 'condition', if: '{% input.big %}', then: [{ id: 'ask', type: 'approval' }], else: [{ id: 'skip', type: 'transform' }] },
      { id: 'end', type: 'transform' },
    ]);
    expect(nodes.map((n) => n.id).sort()).toEqual(['ask', 'check', 'end', 'skip']);
    expect(edges).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'check', target: 'ask', label: 'then' }),
        expect.objectContaining({ source: 'check', target: 'skip', label: 'else' }),
        expect.objectContaining({ source: 'check', target: 'end' }),
      ]),
    );
  });

  it('is empty for no steps', () => {
    expect(toGraph([])).toEqual({ nodes: [], edges: [] });
  });
});

describe('JSON text ↔ definition', () => {
  it('reads back what it wrote', () => {
    const parsed = parseText(toText(THREE));
    expect(parsed).toEqual({ ok: true, definition: THREE });
  });

  it('keeps the graph when the text is not a definition, and says why', () => {
    const error = (text: string) => {
      const parsed = parseText(text);
      return parsed.ok ? 'parsed' : parsed.error;
    };
    expect(error('{"name": "x", "steps": [')).toContain('Not JSON');
    expect(error('{"name": "x"}')).toBe('`steps` must be an array');
    expect(error('{"name": "x", "steps": [{"id": 1}]}')).toContain('steps[0]');
    expect(error('[]')).toBe('The definition must be a JSON object');
  });

  it('an edit of the text shows in the graph', () => {
    const text = toText(THREE).replace('"done"', '"finish"');
    const parsed = parseText(text);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(toGraph(parsed.definition.steps).nodes.map((n) => n.id)).toEqual(['prepare', 'approval', 'finish']);
  });
});

describe('graph edits → definition (and its text)', () => {
  it('adds a step after the selected one with a fresh id and a default input', () => {
    const { definition, id } = addStep(THREE, 'approval', 'prepare');
    expect(id).toBe('approval_2');
    expect(ids(definition)).toEqual(['prepare', 'approval_2', 'approval', 'done']);
    expect(definition.steps[1]).toEqual({ id: 'approval_2', type: 'approval', input: { title: 'Approve?' } });
    expect(parseText(toText(definition))).toEqual({ ok: true, definition });
  });

  it('adds at the end when nothing is selected', () => {
    expect(ids(addStep(THREE, 'delay').definition)).toEqual(['prepare', 'approval', 'done', 'delay']);
  });

  it('removes a step, nested ones too', () => {
    expect(ids(removeStep(THREE, 'approval'))).toEqual(['prepare', 'done']);
    const nested: Definition = {
      name: 'n',
      steps: [
        {
          id: 'c',
          type: 'condition',
          then: [
            { id: 'a', type: 'approval' },
            { id: 'b', type: 'transform' },
          ],
        },
      ],
    };
    expect(removeStep(nested, 'a').steps[0].then).toEqual([{ id: 'b', type: 'transform' }]);
  });

  it('reorders within the step’s own sequence and stops at the ends', () => {
    expect(ids(moveStep(THREE, 'done', -1))).toEqual(['prepare', 'done', 'approval']);
    expect(ids(moveStep(THREE, 'prepare', 1))).toEqual(['approval', 'prepare', 'done']);
    expect(moveStep(THREE, 'prepare', -1)).toEqual(THREE);
    expect(moveStep(THREE, 'done', 1)).toEqual(THREE);
  });

  it('renames a step: graph and text both follow', () => {
    const renamed = updateStep(THREE, 'approval', { id: 'manager_ok', input: { title: 'Manager?' } });
    expect(toGraph(renamed.steps).edges.map((e) => e.id)).toEqual(['prepare->manager_ok', 'manager_ok->done']);
    expect(toText(renamed)).toContain('"manager_ok"');
    expect(THREE.steps[1].id).toBe('approval');
  });
});

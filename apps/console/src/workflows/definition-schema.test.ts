import { jsonLanguage } from '@codemirror/lang-json';
import { describe, expect, it } from 'vitest';
import { definitionSchema, fromOpenApi, schemaProblems, stepInputSchema, withExpressions } from './definition-schema';
import { pointerRange } from './json-positions';

/** The shape of the run service's OpenAPI, cut down: nullable fields, a $ref to the step schema. */
const OPENAPI = {
  components: {
    schemas: {
      CreateWorkflowRequestDto: {
        type: 'object',
        required: ['name', 'steps'],
        properties: {
          name: { type: 'string', minLength: 1, example: 'x' },
          description: { type: 'string', nullable: true },
          input_schema: { type: 'object', nullable: true, additionalProperties: true },
          steps: { type: 'array', items: { $ref: '#/components/schemas/WorkflowStep' } },
        },
      },
      WorkflowStep: {
        type: 'object',
        required: ['id', 'type'],
        properties: { id: { type: 'string' }, type: { type: 'string' }, else: { type: 'array', items: { $ref: '#/components/schemas/WorkflowStep' } } },
      },
    },
  },
};

describe("the definition's schema, from the OpenAPI document", () => {
  const schema = definitionSchema(OPENAPI)!;

  it('turns OpenAPI nullable into JSON Schema types', () => {
    expect(fromOpenApi({ type: 'string', nullable: true })).toEqual({ type: ['string', 'null'] });
    expect(fromOpenApi({ $ref: '#/x', nullable: true })).toEqual({ anyOf: [{ $ref: '#/x' }, { type: 'null' }] });
    expect(fromOpenApi({ properties: { a: { type: 'integer', nullable: false } } })).toEqual({ properties: { a: { type: 'integer' } } });
  });

  it('accepts a valid definition, nulls where the API allows them', () => {
    expect(schemaProblems(schema, { name: 'w', description: null, input_schema: null, steps: [{ id: 'a', type: 'transform' }] })).toEqual([]);
  });

  it('names each problem at its precise place, through $ref, without the summaries above it', () => {
    const problems = schemaProblems(schema, {
      name: 'w',
      steps: [
        { id: 'a', type: 'transform' },
        { id: 'b', type: 'condition', else: 5 },
      ],
    });
    expect(problems.map((p) => p.pointer)).toEqual(['/steps/1/else']);
    expect(problems[0].message).toMatch(/array/);
    expect(schemaProblems(schema, { steps: [] }).map((p) => p.pointer)).toEqual(['']);
  });

  it('is null when the document has no such schema (the editor then checks syntax only)', () => {
    expect(definitionSchema({})).toBeNull();
    expect(definitionSchema(null)).toBeNull();
  });
});

describe('where a JSON pointer lies in the text', () => {
  const text = JSON.stringify(
    {
      name: 'w',
      steps: [
        { id: 'a', type: 'transform' },
        { id: 'b', else: 5 },
      ],
    },
    null,
    2,
  );
  const tree = jsonLanguage.parser.parse(text);
  const at = (pointer: string) => {
    const { from, to } = pointerRange(tree, text, pointer);
    return text.slice(from, to);
  };

  it('finds values in objects and arrays', () => {
    expect(at('/steps/1/else')).toBe('5');
    expect(at('/steps/0/type')).toBe('"transform"');
    expect(at('/name')).toBe('"w"');
  });

  it('points at the closest enclosing value when the place is missing, and at the start for the whole', () => {
    expect(at('/steps/1/type')).toBe('{');
    expect(pointerRange(tree, text, '/steps/1/type').from).toBe(text.indexOf('{\n      "id": "b"'));
    expect(at('')).toBe('{');
  });
});

describe("a built-in step type's input schema", () => {
  const openApi = {
    components: {
      schemas: {
        ...OPENAPI.components.schemas,
        WorkflowStep: {
          ...OPENAPI.components.schemas.WorkflowStep,
          'x-input-schema-by-type': {
            delay: { $ref: '#/components/schemas/DelayStepInput' },
            odd: { $ref: 'elsewhere' },
            bare: '#/components/schemas/DelayStepInput',
          },
        },
        DelayStepInput: { type: 'object', properties: { seconds: { type: 'number', minimum: 0 }, until: { type: 'string', nullable: true } } },
      },
    },
  };
  const schema = definitionSchema(openApi);

  it('is the component WorkflowStep names for the type (converted like the rest), and none for another type', () => {
    expect(stepInputSchema(schema, 'delay')).toEqual({
      type: 'object',
      properties: { seconds: { type: 'number', minimum: 0 }, until: { type: ['string', 'null'] } },
    });
    expect(stepInputSchema(schema, 'transform')).toBeNull();
    expect(stepInputSchema(schema, 'odd')).toBeNull();
    expect(stepInputSchema(schema, 'bare')).toBeNull();
    expect(stepInputSchema(schema, 'constructor')).toBeNull();
    expect(stepInputSchema(null, 'delay')).toBeNull();
  });

  it('turns a field holding an expression into text, so the form shows it instead of losing it', () => {
    const delay = stepInputSchema(schema, 'delay')!;
    expect(withExpressions(delay, { seconds: '{% input.wait %}' }).properties).toEqual({
      seconds: { type: 'string', format: 'textarea' },
      until: { type: ['string', 'null'] },
    });
    expect(withExpressions(delay, { seconds: 5 })).toEqual(delay);
  });
});

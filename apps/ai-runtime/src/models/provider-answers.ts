import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ProviderFailedError } from './provider.errors.js';

/**
 * The shapes of an OpenAI-compatible server's answers that the runtime reads. The client library
 * types them but does not check them, so a server answering 200 with something else (a proxy's
 * HTML page, another API's JSON, an empty list) would otherwise surface as a JavaScript error or a
 * meaningless result. Extra fields are allowed: servers add their own.
 */
const usage = {
  type: ['object', 'null'],
  properties: { prompt_tokens: { type: ['integer', 'null'], minimum: 0 }, completion_tokens: { type: ['integer', 'null'], minimum: 0 } },
};
const toolCall = {
  type: 'object',
  required: ['id', 'function'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string' },
    function: { type: 'object', required: ['name', 'arguments'], properties: { name: { type: 'string' }, arguments: { type: 'string' } } },
  },
};

const completionSchema = {
  type: 'object',
  required: ['choices'],
  properties: {
    choices: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['message'],
        properties: {
          message: {
            type: 'object',
            properties: { content: { type: ['string', 'null'] }, tool_calls: { type: ['array', 'null'], items: toolCall } },
          },
          finish_reason: { type: ['string', 'null'] },
        },
      },
    },
    usage,
  },
};

const chunkSchema = {
  type: 'object',
  properties: {
    choices: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          delta: {
            type: ['object', 'null'],
            properties: {
              content: { type: ['string', 'null'] },
              tool_calls: {
                type: ['array', 'null'],
                items: {
                  type: 'object',
                  required: ['index'],
                  properties: {
                    index: { type: 'integer', minimum: 0 },
                    id: { type: ['string', 'null'] },
                    function: { type: ['object', 'null'], properties: { name: { type: ['string', 'null'] }, arguments: { type: ['string', 'null'] } } },
                  },
                },
              },
            },
          },
          finish_reason: { type: ['string', 'null'] },
        },
      },
    },
    usage,
  },
  // A chunk carries text (choices) or the totals (usage); one with neither is not a chunk.
  anyOf: [{ required: ['choices'] }, { required: ['usage'] }],
};

const embeddingsSchema = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['index', 'embedding'],
        properties: { index: { type: 'integer', minimum: 0 }, embedding: { type: 'array', minItems: 1, items: { type: 'number' } } },
      },
    },
    usage,
  },
};

const ajv = new Ajv({ allErrors: false, strict: false });
const validators = {
  completion: ajv.compile(completionSchema),
  chunk: ajv.compile(chunkSchema),
  embeddings: ajv.compile(embeddingsSchema),
};

export interface CompletionAnswer {
  choices: {
    message: { content?: string | null; tool_calls?: { id: string; type?: string; function: { name: string; arguments: string } }[] | null };
    finish_reason?: string | null;
  }[];
  usage?: Usage | null;
}

export interface CompletionChunk {
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: { index: number; id?: string | null; function?: { name?: string | null; arguments?: string | null } | null }[] | null;
    } | null;
    finish_reason?: string | null;
  }[];
  usage?: Usage | null;
}

export interface EmbeddingsAnswer {
  data: { index: number; embedding: number[] }[];
  usage?: Usage | null;
}

interface Usage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
}

/** A chat completion as read, or a 502 naming what is wrong with it. */
export function checkCompletion(answer: unknown): CompletionAnswer {
  return checked(validators.completion, answer, 'chat completion');
}

/** One streamed chunk as read, or a 502 naming what is wrong with it. */
export function checkChunk(chunk: unknown): CompletionChunk {
  return checked(validators.chunk, chunk, 'streamed chunk');
}

/**
 * An embeddings answer with one vector per input, each index once, all of one dimension; or a
 * 502 naming what is wrong with it.
 */
export function checkEmbeddings(answer: unknown, inputs: number): EmbeddingsAnswer {
  const read = checked<EmbeddingsAnswer>(validators.embeddings, answer, 'embeddings answer');
  if (read.data.length !== inputs) throw malformed('embeddings answer', `data has ${read.data.length} embeddings for ${inputs} inputs`);
  const indexes = new Set(read.data.map((d) => d.index));
  if (indexes.size !== inputs || [...indexes].some((i) => i >= inputs))
    throw malformed('embeddings answer', `data does not index each input once (0 to ${inputs - 1})`);
  const dimensions = read.data[0]?.embedding.length ?? 0;
  const other = read.data.find((d) => d.embedding.length !== dimensions);
  if (other) throw malformed('embeddings answer', `data[${other.index}].embedding has ${other.embedding.length} dimensions, data[0] has ${dimensions}`);
  return read;
}

function checked<T>(validate: ValidateFunction, value: unknown, what: string): T {
  if (validate(value)) return value as T;
  throw malformed(what, describe(validate.errors?.[0]));
}

function malformed(what: string, problem: string): ProviderFailedError {
  return new ProviderFailedError(`The model provider's ${what} is malformed: ${problem}`);
}

/** `choices[0].message must be object`: where and what, in the answer's own field names. */
function describe(error: ErrorObject | undefined): string {
  if (!error) return 'it could not be read';
  const path = error.instancePath
    .split('/')
    .slice(1)
    .reduce((p, s) => (/^\d+$/.test(s) ? `${p}[${s}]` : p ? `${p}.${s}` : s), '');
  if (error.keyword === 'required') {
    const field = (error.params as { missingProperty: string }).missingProperty;
    return `${path ? `${path}.` : ''}${field} is missing`;
  }
  if (error.keyword === 'anyOf') return 'it has neither choices nor usage';
  return `${path || 'the answer'} ${error.message ?? 'is invalid'}`;
}

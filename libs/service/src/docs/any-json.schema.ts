/**
 * The OpenAPI schema of any JSON value, null included: what a workflow produced (a run's or a
 * step's input or output), typed `unknown` by generated clients rather than as an empty object.
 */
export const ANY_JSON_SCHEMA = {
  anyOf: [
    { type: 'object', additionalProperties: true, nullable: true },
    { type: 'array', items: {}, nullable: true },
    { type: 'string', nullable: true },
    { type: 'number', nullable: true },
    { type: 'boolean', nullable: true },
  ],
};

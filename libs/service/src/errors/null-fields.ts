import { ValidationError } from 'class-validator';

const SWAGGER_PROPERTY = 'swagger/apiModelProperties';

interface PropertyDocs {
  nullable?: boolean;
  anyOf?: { nullable?: boolean }[];
  oneOf?: { nullable?: boolean }[];
}

/** Whether the OpenAPI description of a DTO property allows null (`nullable: true`, or a nullable `anyOf`/`oneOf` branch). */
export function documentsNull(prototype: object, property: string): boolean {
  const docs = Reflect.getMetadata(SWAGGER_PROPERTY, prototype, property) as PropertyDocs | undefined;
  if (!docs) return false;
  if (docs.nullable === true) return true;
  return [...(docs.anyOf ?? []), ...(docs.oneOf ?? [])].some((branch) => branch?.nullable === true);
}

/** An instance of a DTO class (class-transformer built it from a nested `@Type`), not free-form JSON. */
const isDtoInstance = (value: unknown): value is object => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype !== null && prototype !== Object.prototype;
};

const prototypeOf = (entity: object): object => {
  // The pipe sets `constructor` on a value class-transformer could not build an instance from.
  const ctor = (entity as { constructor?: unknown }).constructor;
  return typeof ctor === 'function' ? (ctor.prototype as object) : (Object.getPrototypeOf(entity) as object);
};

const node = (property: string, value: unknown, children: ValidationError[] = [], constraints?: Record<string, string>): ValidationError =>
  Object.assign(new ValidationError(), { property, value, children, ...(constraints ? { constraints } : {}) });

/**
 * `null` in a field whose OpenAPI schema does not say `nullable`, in `entity` (a request DTO as
 * class-transformer built it) and the DTOs nested in it, as class-validator errors. class-validator's
 * `@IsOptional()` skips null as it skips a missing field, so without this check `{"workflow_id":null}`
 * reached the services: a 200 that cleared or ignored a field the contract says cannot be null.
 * A field that already has an error (`known`) is not reported twice; free-form JSON (a run's input)
 * is not walked, and keeps its nulls.
 */
export function findNullFields(entity: object, known: ValidationError[]): ValidationError[] {
  const found: ValidationError[] = [];
  const prototype = prototypeOf(entity);
  for (const [property, value] of Object.entries(entity)) {
    const error = known.find((e) => e.property === property);
    if (value === null) {
      if (!error && !documentsNull(prototype, property)) found.push(node(property, null, [], { isNotNull: `${property} must not be null` }));
      continue;
    }
    const children: ValidationError[] = [];
    if (isDtoInstance(value)) children.push(...findNullFields(value, error?.children ?? []));
    else if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => {
        if (!isDtoInstance(item)) return;
        const inner = findNullFields(item, error?.children?.find((e) => e.property === String(index))?.children ?? []);
        if (inner.length) children.push(node(String(index), item, inner));
      });
    }
    if (children.length) found.push(node(property, value, children));
  }
  return found;
}

/** Adds `extra` into the error tree `into` (in place), under the error of the same property where there is one. */
export function mergeValidationErrors(into: ValidationError[], extra: ValidationError[]): ValidationError[] {
  for (const error of extra) {
    const same = into.find((e) => e.property === error.property);
    if (same) same.children = mergeValidationErrors(same.children ?? [], error.children ?? []);
    else into.push(error);
  }
  return into;
}

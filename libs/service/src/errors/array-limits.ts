import { applyDecorators, type Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, getMetadataStorage, ValidationTypes, type MetadataStorage } from 'class-validator';
import { controllersOf, type ModuleLike } from '@platform/auth';
import { AppError } from '@platform/common';

/**
 * The most items an array field of a request may have when no smaller bound is stated (MaxItems):
 * above every field's own bound, and far below what costs seconds to validate (class-validator
 * walks a 100,000-item array of objects for 2–4 s, and flattening its errors overflowed the stack).
 */
export const MAX_ARRAY_ITEMS = 10_000;

/**
 * Bounds an array field of a request DTO and documents the bound in one decorator:
 * class-validator's ArrayMaxSize and the OpenAPI `maxItems`. The validation pipe refuses a longer
 * array before any of its items is transformed or validated.
 */
export function MaxItems(max: number): PropertyDecorator {
  return applyDecorators(ArrayMaxSize(max), ApiProperty({ maxItems: max }));
}

export interface OversizedArray {
  /** `messages`, `messages[3].tool_calls`: the field path validation errors use. */
  field: string;
  length: number;
  limit: number;
}

/** One class-validator rule of a property (its ValidationMetadata type is not exported). */
type ValidationRule = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function metadataByProperty(target: Type<unknown>): Map<string, ValidationRule[]> {
  const byProperty = new Map<string, ValidationRule[]>();
  for (const metadata of getMetadataStorage().getTargetValidationMetadatas(target, '', true, false)) {
    byProperty.set(metadata.propertyName, [...(byProperty.get(metadata.propertyName) ?? []), metadata]);
  }
  return byProperty;
}

/** Any array over MAX_ARRAY_ITEMS inside `value`, walked without recursion. */
function findLongArray(value: unknown, path: string): OversizedArray | null {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length) {
    const [current, at] = stack.pop()!;
    if (Array.isArray(current)) {
      if (current.length > MAX_ARRAY_ITEMS) return { field: at, length: current.length, limit: MAX_ARRAY_ITEMS };
      current.forEach((item, i) => stack.push([item, `${at}[${i}]`]));
    } else if (isRecord(current)) {
      for (const [key, child] of Object.entries(current)) if (child !== null && typeof child === 'object') stack.push([child, `${at}.${key}`]);
    }
  }
  return null;
}

/**
 * The first array in `value` (a request's body or query as parsed, before class-transformer) that
 * class-validator would walk item by item and that is longer than allowed: a field of `target`
 * validated with `each` or nested, over its MaxItems (MAX_ARRAY_ITEMS without one), or any array
 * over MAX_ARRAY_ITEMS inside a nested field (whose class class-transformer alone knows). Free-form
 * fields (`@IsObject()`: a run's input, metadata) are not walked by the validator and keep any length.
 */
export function findOversizedArray(value: unknown, target: Type<unknown>): OversizedArray | null {
  if (!isRecord(value)) return null;
  for (const [property, rules] of metadataByProperty(target)) {
    const nested = rules.some((r) => r.type === ValidationTypes.NESTED_VALIDATION);
    if (!nested && !rules.some((r) => r.each)) continue;
    const field = value[property];
    if (Array.isArray(field)) {
      const own: unknown = rules.find((r) => r.name === 'arrayMaxSize')?.constraints?.[0];
      const limit = typeof own === 'number' ? Math.min(own, MAX_ARRAY_ITEMS) : MAX_ARRAY_ITEMS;
      if (field.length > limit) return { field: property, length: field.length, limit };
    }
    const inside = nested ? findLongArray(field, property) : null;
    if (inside) return inside;
  }
  return null;
}

/** The 400 for an array over its bound (code `too_many_items`). */
export function tooManyItemsError({ field, length, limit }: OversizedArray, part: 'body' | 'query'): AppError {
  return new AppError(
    'too_many_items',
    400,
    `Too many items in ${part === 'body' ? 'body field' : 'query parameter'} '${field}': ${length}, at most ${limit}`,
    [{ field, message: `must contain no more than ${limit} items` }],
  );
}

const SWAGGER_PROPERTY = 'swagger/apiModelProperties';
const PRIMITIVES = new Set<unknown>([String, Number, Boolean, Object, Array, Date]);

/** The request DTO classes (bodies and queries) of the routes reachable from `root`. */
function requestDtos(root: ModuleLike): Type<unknown>[] {
  const dtos: Type<unknown>[] = [];
  // Route arguments are keyed `<RouteParamtypes>:<index>`.
  const requestParts = new Set([`${RouteParamtypes.BODY}`, `${RouteParamtypes.QUERY}`]);
  for (const controller of new Set(controllersOf(root))) {
    const prototype = controller.prototype as object;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { index: number }>;
      const types = (Reflect.getMetadata('design:paramtypes', prototype, name) ?? []) as unknown[];
      for (const [key, { index }] of Object.entries(args)) {
        const type = types[index];
        if (requestParts.has(key.split(':')[0]) && typeof type === 'function' && !PRIMITIVES.has(type)) dtos.push(type as Type<unknown>);
      }
    }
  }
  return dtos;
}

/**
 * Array fields of the request DTOs of every route reachable from `root` (and of the DTOs nested in
 * them, found through their OpenAPI types) that state no MaxItems: no ArrayMaxSize, or no OpenAPI
 * `maxItems` equal to it. `Dto.field`, for a test over every service.
 */
export function findUnboundedArrayFields(root: ModuleLike): string[] {
  const unbounded = new Set<string>();
  const seen = new Set<Type<unknown>>();
  const visit = (dto: Type<unknown>) => {
    if (seen.has(dto) || PRIMITIVES.has(dto)) return;
    seen.add(dto);
    const prototype = dto.prototype as object;
    const rulesOf = metadataByProperty(dto);
    const documented = ((Reflect.getMetadata('swagger/apiModelPropertiesArray', prototype) ?? []) as string[]).map((key) => key.slice(1));
    for (const property of new Set([...rulesOf.keys(), ...documented])) {
      const rules = rulesOf.get(property) ?? [];
      const docs = (Reflect.getMetadata(SWAGGER_PROPERTY, prototype, property) ?? {}) as { type?: unknown; isArray?: boolean; maxItems?: number };
      const isArray =
        Reflect.getMetadata('design:type', prototype, property) === Array ||
        docs.isArray === true ||
        docs.type === 'array' ||
        rules.some((r) => r.name === 'isArray' || r.each);
      const bound: unknown = rules.find((r) => r.name === 'arrayMaxSize')?.constraints?.[0];
      if (isArray && (typeof bound !== 'number' || docs.maxItems !== bound)) unbounded.add(`${dto.name}.${property}`);
      if (typeof docs.type === 'function') visit(docs.type as Type<unknown>);
    }
  };
  requestDtos(root).forEach(visit);
  return [...unbounded].sort();
}

import { applyDecorators } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

/**
 * Tag descriptions, recorded as controllers are defined. A service process loads only its own
 * controllers, so this holds exactly the tags its description can use.
 */
const TAG_DESCRIPTIONS = new Map<string, string>();

/**
 * `@ApiTags(name)` that also declares the tag, with a description, in the OpenAPI document
 * (linters and client generators want every tag an operation uses declared).
 */
export function ApiTag(name: string, description: string): ClassDecorator & MethodDecorator {
  const known = TAG_DESCRIPTIONS.get(name);
  if (known !== undefined && known !== description) throw new Error(`OpenAPI tag '${name}' is described twice, differently`);
  TAG_DESCRIPTIONS.set(name, description);
  return applyDecorators(ApiTags(name));
}

export function tagDescriptions(): ReadonlyMap<string, string> {
  return TAG_DESCRIPTIONS;
}

import { Controller, RequestMethod, RequestMapping, type Type } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@platform/auth';
import { AppError, type PlannedRoute } from '@platform/common';

/**
 * Routes of the spec whose feature is not built yet answer 501 in the error shape (after
 * authentication, like any route), and appear in the OpenAPI description marked as such.
 * A feature that implements a route removes it from its service's planned list.
 */
/** 'List AI agents' → 'listAiAgents': unique within a service, readable in generated clients. */
function operationName(summary: string): string {
  const words = summary.replace(/\(.*?\)/g, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('');
}

export function plannedRoutesController(tag: string, routes: readonly PlannedRoute[]): Type<unknown> {
  class PlannedRoutesController {}
  const prototype = PlannedRoutesController.prototype as unknown as Record<string, unknown>;
  routes.forEach((route, index) => {
    const name = `planned${index}`;
    prototype[name] = function notImplemented(): never {
      throw new AppError('not_implemented', 501, `${route.method} ${route.path} is not implemented yet`);
    };
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
    const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => ApiParam({ name: m[1], type: String }));
    const decorated = Reflect.decorate(
      [
        RequestMapping({ path: route.path, method: RequestMethod[route.method] }),
        RequireScopes(...(route.scopes ?? [])),
        ApiOperation({ summary: `${route.summary} (not implemented yet)`, operationId: `${tag}_${operationName(route.summary)}` }),
        ApiResponse({ status: 501, description: 'Not implemented yet' }),
        ...params,
      ],
      prototype,
      name,
      descriptor,
    ) as PropertyDescriptor | undefined;
    Object.defineProperty(prototype, name, decorated ?? descriptor);
  });
  Reflect.decorate([Controller(), ApiTags(tag)], PlannedRoutesController);
  return PlannedRoutesController;
}

import { Controller, RequestMethod, RequestMapping, type Type } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@platform/auth';
import type { PlannedRoute } from '../catalog/services.catalog.js';
import { AppError } from '../errors/app.errors.js';

/**
 * Routes of the spec whose feature is not built yet answer 501 in the error shape (after
 * authentication, like any route), and appear in the OpenAPI description marked as such.
 * A feature that implements a route removes it from its service's planned list.
 */
export function plannedRoutesController(tag: string, routes: readonly PlannedRoute[]): Type<unknown> {
  class PlannedRoutesController {}
  const prototype = PlannedRoutesController.prototype as unknown as Record<string, unknown>;
  routes.forEach((route, index) => {
    const name = `planned${index}`;
    prototype[name] = function notImplemented(): never {
      throw new AppError('not_implemented', 501, `${route.method} ${route.path} is not implemented yet`);
    };
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
    const decorated = Reflect.decorate(
      [
        RequestMapping({ path: route.path, method: RequestMethod[route.method] }),
        RequireScopes(),
        ApiOperation({ summary: `${route.summary} (not implemented yet)` }),
        ApiResponse({ status: 501, description: 'Not implemented yet' }),
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

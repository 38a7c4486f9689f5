import { Controller, RequestMethod, RequestMapping, type Type } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { RequireScopes } from '@platform/auth';
import { AppError, type PlannedRoute } from '@platform/common';

/**
 * Routes of the spec whose feature is not built yet answer 501 in the error shape (after
 * authentication, like any route). They are kept out of the OpenAPI operations, so that no
 * client is generated for a route that cannot work; the service's description lists them.
 * A feature that implements a route removes it from its service's planned list.
 */
export function plannedRoutesController(routes: readonly PlannedRoute[]): Type<unknown> {
  class PlannedRoutesController {}
  const prototype = PlannedRoutesController.prototype as unknown as Record<string, unknown>;
  routes.forEach((route, index) => {
    const name = `planned${index}`;
    prototype[name] = function notImplemented(): never {
      throw new AppError('not_implemented', 501, `${route.method} ${route.path} is not implemented yet`);
    };
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
    const decorated = Reflect.decorate(
      [RequestMapping({ path: route.path, method: RequestMethod[route.method] }), RequireScopes(...(route.scopes ?? [])), ApiExcludeEndpoint()],
      prototype,
      name,
      descriptor,
    ) as PropertyDescriptor | undefined;
    Object.defineProperty(prototype, name, decorated ?? descriptor);
  });
  Reflect.decorate([Controller()], PlannedRoutesController);
  return PlannedRoutesController;
}

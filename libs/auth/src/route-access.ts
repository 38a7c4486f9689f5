import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { PUBLIC_KEY, SCOPES_KEY } from './auth.decorators.js';
import { SYSTEM_KEY } from './system-principal.js';

/** A route with no access decision: `Controller.method GET /path`. */
export interface UndecidedRoute {
  controller: string;
  handler: string;
  method: string;
  path: string;
}

export type ModuleLike = Type<unknown> | { module: Type<unknown>; imports?: unknown[]; controllers?: Type<unknown>[] } | Promise<unknown> | undefined;

function decided(target: object): boolean {
  return (
    Reflect.getMetadata(PUBLIC_KEY, target) === true ||
    Reflect.getMetadata(SYSTEM_KEY, target) === true ||
    Array.isArray(Reflect.getMetadata(SCOPES_KEY, target))
  );
}

/** The controllers of `root` and of every module it imports, dynamic modules included. */
export function controllersOf(root: ModuleLike, seen = new Set<unknown>()): Type<unknown>[] {
  if (!root || root instanceof Promise || seen.has(root)) return [];
  seen.add(root);
  const dynamic = typeof root === 'object' ? root : undefined;
  const moduleClass = dynamic ? dynamic.module : root;
  const imports = [
    ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, moduleClass) as ModuleLike[] | undefined) ?? []),
    ...((dynamic?.imports as ModuleLike[] | undefined) ?? []),
  ];
  const controllers = [
    ...((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, moduleClass) as Type<unknown>[] | undefined) ?? []),
    ...(dynamic?.controllers ?? []),
  ];
  return [...controllers, ...imports.flatMap((imported) => controllersOf(imported, seen))];
}

/**
 * Every HTTP route reachable from `root` (its controllers and those of the modules it imports)
 * that states no access: neither `@Public()`, `@SystemRoute()` nor `@RequireScopes(...)`, on the
 * handler or its controller. The TenantGuard refuses such a route at run time; this finds it first.
 */
export function findUndecidedRoutes(root: ModuleLike): UndecidedRoute[] {
  const undecided: UndecidedRoute[] = [];
  for (const controller of new Set(controllersOf(root))) {
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (path === undefined) continue; // not an HTTP route (a message handler or a helper)
      if (decided(handler) || decided(controller)) continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      const base = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
      undecided.push({
        controller: controller.name,
        handler: name,
        method: RequestMethod[method ?? RequestMethod.GET],
        path: `/${[base, ...[path].flat()].filter(Boolean).join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1'),
      });
    }
  }
  return undecided;
}

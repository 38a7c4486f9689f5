import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { Authenticator } from '@platform/auth';
import { resolveError } from '../errors/all-exceptions.filter.js';
import { errorBody, type PlannedRoute, type RequestWithId, type ServiceDefinition } from '@platform/common';
import { tagDescriptions } from './api-tag.js';
import { completeOpenApiDocument } from './openapi-document.js';

export const DOCS_JSON_PATH = '/v3/api-docs';
export const DOCS_UI_PATH = '/swagger-ui';

export interface OpenApiOptions {
  /** Extra component schemas (e.g. a JSON Schema referenced by $ref). */
  schemas?: Record<string, object>;
  /** Spec routes not built yet: kept out of the operations (they answer 501), listed in the description. */
  plannedRoutes?: readonly PlannedRoute[];
}

function serviceDescription(service: ServiceDefinition, planned: readonly PlannedRoute[]): string {
  const parts = [
    `${service.description}.`,
    "Authenticate with an API key (`X-API-Key: sv_…` or `Authorization: Bearer sv_…`) or a user's JWT with `X-SELECTED-TENANT` (and optionally `X-SELECTED-ENV`); a tenant-wide credential narrows itself to one customer with `X-Scope-Key`. Each operation lists the scopes it requires.",
    'Errors use one shape, the `Error` schema: `{ error, message, status, request_id, details? }`; validation failures name every field in `details`. ' +
      'Lists take `limit` (1–200, default 50) and `cursor`, and answer `{ data, next_cursor }`.',
  ];
  if (planned.length) {
    parts.push(
      `Planned endpoints answer 501 until they are built and are not described here; see docs/ and the platform API specification:\n\n${planned.map((r) => `- \`${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}\`: ${r.summary}`).join('\n')}`,
    );
  }
  return parts.join('\n\n');
}

export function buildOpenApiDocument(app: INestApplication, service: ServiceDefinition, options: OpenApiOptions = {}): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(`${service.title} service`)
    .setDescription(serviceDescription(service, options.plannedRoutes ?? []))
    .setVersion('1.0.0')
    .addServer('/', 'The gateway (or the service itself)')
    .build();
  config.info.contact = { name: 'Workflow automation platform' };
  // Nest names operations `<Controller>.<method>`; the completion step prefixes the service.
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (controller, method) => `${controller}.${method}` });
  return completeOpenApiDocument(document, { service: service.name, tags: tagDescriptions(), schemas: options.schemas });
}

/**
 * Docs and explorer need a valid credential unless DOCS_PUBLIC=true (API-CONTRACT). The same
 * Authenticator as the API decides, so a key that works for the API works for its docs.
 */
export function docsAccess(authenticator: Authenticator, docsPublic: boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (docsPublic) return next();
    authenticator.authenticate(req).then(
      () => next(),
      (error: unknown) => {
        const resolved = resolveError(error);
        res.status(resolved.status).json(errorBody(resolved.status, resolved.message, (req as RequestWithId).id));
      },
    );
  };
}

export function mountDocs(app: INestApplication, service: ServiceDefinition, docsPublic: boolean, options: OpenApiOptions = {}): OpenAPIObject {
  const document = buildOpenApiDocument(app, service, options);
  app.use([DOCS_JSON_PATH, DOCS_UI_PATH], docsAccess(app.get(Authenticator), docsPublic));
  SwaggerModule.setup(DOCS_UI_PATH.slice(1), app, document, {
    jsonDocumentUrl: DOCS_JSON_PATH.slice(1),
    yamlDocumentUrl: `${DOCS_JSON_PATH.slice(1)}.yaml`,
    customSiteTitle: `${service.title} API`,
  });
  return document;
}

import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { Authenticator } from '@platform/auth';
import { resolveError } from '../errors/all-exceptions.filter.js';
import { errorBody, type RequestWithId, type ServiceDefinition } from '@platform/common';

export const DOCS_JSON_PATH = '/v3/api-docs';
export const DOCS_UI_PATH = '/swagger-ui';

export function buildOpenApiDocument(app: INestApplication, service: ServiceDefinition): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(`${service.title} service`)
    .setDescription(
      `${service.description}.\n\nErrors use one shape: \`{ error, message, status, request_id, details? }\`. ` +
        'Lists take `limit` (1–200, default 50) and `cursor`, and answer `{ data, next_cursor }`.',
    )
    .setVersion('1.0.0')
    .addServer('/')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (sv_live_… or sv_test_…)' }, 'api_key')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key, or a JWT with X-SELECTED-TENANT' }, 'bearer')
    .build();
  return SwaggerModule.createDocument(app, config, { operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}` });
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

export function mountDocs(app: INestApplication, service: ServiceDefinition, docsPublic: boolean, schemas: Record<string, object> = {}): OpenAPIObject {
  const document = buildOpenApiDocument(app, service);
  document.components = { ...document.components, schemas: { ...(document.components?.schemas ?? {}), ...(schemas as Record<string, never>) } };
  app.use([DOCS_JSON_PATH, DOCS_UI_PATH], docsAccess(app.get(Authenticator), docsPublic));
  SwaggerModule.setup(DOCS_UI_PATH.slice(1), app, document, {
    jsonDocumentUrl: DOCS_JSON_PATH.slice(1),
    yamlDocumentUrl: `${DOCS_JSON_PATH.slice(1)}.yaml`,
    customSiteTitle: `${service.title} API`,
  });
  return document;
}

import type { OpenAPIObject, ParameterObject } from '@nestjs/swagger';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Swagger UI pre-fills a parameter with its example and sends it on "Execute". A made-up id then
 * answers 404, and pre-filled filters or a fixed time window answer an empty list that reads as a
 * broken API. So path ids and optional query parameters (filters, windows: their defaults apply)
 * carry no example; the UI asks for an id, whose description says where to find one. Required
 * query values (an action's cut-off time) keep theirs.
 */
export function leaveParametersBlank(document: OpenAPIObject): OpenAPIObject {
  for (const [url, path] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      for (const parameter of (path[method]?.parameters ?? []) as ParameterObject[]) {
        if (parameter.in === 'path' || (parameter.in === 'query' && !parameter.required)) blank(parameter);
        if (parameter.in === 'path' && parameter.name === 'id') sayWhereIdsAre(parameter, document, url.slice(0, url.indexOf('/{id}')));
      }
    }
  }
  return document;
}

function sayWhereIdsAre(parameter: ParameterObject, document: OpenAPIObject, collection: string): void {
  const description = parameter.description ?? 'Id';
  if (description.includes('`id`')) return;
  const listed = document.paths[collection]?.get ? `, or of an item of GET ${collection}` : '';
  parameter.description = `${description}: the \`id\` of its create answer${listed}`;
}

function blank(parameter: ParameterObject): void {
  delete parameter.example;
  delete parameter.examples;
  if (parameter.schema && 'example' in parameter.schema) delete parameter.schema.example;
}

import type { OpenAPIObject, RequestBodyObject } from '@nestjs/swagger';

const SCHEMA_REF = '#/components/schemas/';

/**
 * Marks every object schema a request body uses (directly or through `$ref`, `oneOf`, `items`…)
 * `additionalProperties: false`: the validation pipe refuses undeclared fields at every depth, so
 * the document says so. Response schemas stay open, so clients tolerate fields added later.
 * Changes `document` in place and returns it.
 */
export function closeRequestSchemas(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const closed = new Set<string>();

  const close = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(close);
    if (!node || typeof node !== 'object') return;
    const schema = node as Record<string, unknown>;
    if (typeof schema.$ref === 'string' && schema.$ref.startsWith(SCHEMA_REF)) {
      const name = schema.$ref.slice(SCHEMA_REF.length);
      if (closed.has(name)) return;
      closed.add(name);
      return close(schemas[name]);
    }
    if (schema.properties && typeof schema.properties === 'object' && schema.additionalProperties === undefined) schema.additionalProperties = false;
    for (const [key, value] of Object.entries(schema)) {
      // `example` values are data, not schemas.
      if (key !== 'example' && key !== 'default' && key !== 'enum') close(value);
    }
  };

  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      const body = operation?.requestBody as RequestBodyObject | undefined;
      for (const media of Object.values(body?.content ?? {})) close(media.schema);
    }
  }
  return document;
}

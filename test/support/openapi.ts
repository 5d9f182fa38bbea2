import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { OpenAPIObject, OperationObject, ParameterObject, ResponseObject, SchemaObject } from '@nestjs/swagger';

/** One operation of an OpenAPI document. */
export interface DocumentedOperation {
  method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  path: string;
  operation: OperationObject;
  /** e.g. `POST /api/v1/qrcodes (createQrCode)`, for failure messages. */
  label: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function operationsOf(document: OpenAPIObject): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const operation = item[method] as OperationObject;
      return { method, path, operation, label: `${method.toUpperCase()} ${path} (${operation.operationId ?? 'no operationId'})` };
    }),
  );
}

export function parametersOf(op: DocumentedOperation, where: 'path' | 'query'): ParameterObject[] {
  return (op.operation.parameters ?? []).filter((parameter): parameter is ParameterObject => 'in' in parameter && parameter.in === where);
}

export function documentedStatuses(op: DocumentedOperation): number[] {
  return Object.keys(op.operation.responses).map(Number);
}

/** The security schemes an operation requires (the document's default when it names none). */
export function securityOf(document: OpenAPIObject, op: DocumentedOperation): string[] {
  const requirements = op.operation.security ?? document.security ?? [];
  return requirements.flatMap((requirement) => Object.keys(requirement));
}

export function responseOf(op: DocumentedOperation, status: number): ResponseObject | undefined {
  return op.operation.responses[String(status)] as ResponseObject | undefined;
}

/**
 * Validates response bodies against the document's schemas, strictly: every object schema that
 * lists properties is closed (no undeclared property passes), so a field the API sends but the
 * document leaves out fails just like a missing or mistyped one.
 */
export class ResponseValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly components: Record<string, unknown>;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: OpenAPIObject) {
    addFormats(this.ajv);
    this.ajv.addFormat('data-uri', /^data:/);
    this.components = closeObjectSchemas(structuredClone(document.components ?? {})) as Record<string, unknown>;
  }

  /** The problems of `body` against the JSON schema documented for `status`, or [] when it conforms. */
  problems(op: DocumentedOperation, status: number, body: unknown): string[] {
    const schema = responseOf(op, status)?.content?.['application/json']?.schema;
    if (!schema) return [`${op.label}: no application/json schema documented for ${status}`];
    const key = `${op.label} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile({ ...(closeObjectSchemas(structuredClone(schema)) as SchemaObject), components: this.components });
      this.compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) => `${op.label} ${status}: body${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
    );
  }
}

function closeObjectSchemas(node: unknown): unknown {
  if (Array.isArray(node)) node.forEach(closeObjectSchemas);
  else if (node && typeof node === 'object') {
    const schema = node as Record<string, unknown>;
    if (schema.properties && typeof schema.properties === 'object' && schema.additionalProperties === undefined) schema.additionalProperties = false;
    Object.values(schema).forEach(closeObjectSchemas);
  }
  return node;
}

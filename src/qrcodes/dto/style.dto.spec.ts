import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { StyleDto } from './style.dto';
import { STYLE_RULE, type StyleRule } from '../../rendering/style/style-schema';

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
};

/** The OpenAPI schemas the running app would publish for StyleDto and the classes it refers to. */
async function publishedSchemas(): Promise<Record<string, Schema>> {
  const moduleRef = await Test.createTestingModule({}).compile();
  const app = moduleRef.createNestApplication(new FastifyAdapter(), { logger: false });
  await app.init();
  try {
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build(), { extraModels: [StyleDto] });
    return document.components?.schemas as Record<string, Schema>;
  } finally {
    await app.close();
  }
}

function resolve(schema: Schema, schemas: Record<string, Schema>): Schema {
  const reference = schema.$ref ?? schema.allOf?.[0]?.$ref;
  return reference ? schemas[reference.replace('#/components/schemas/', '')] : schema;
}

/** Walks the validation rule and the published schema together, reporting every difference. */
function differences(rule: StyleRule, published: Schema, schemas: Record<string, Schema>, path: string): string[] {
  const schema = resolve(published, schemas);
  const found: string[] = [];
  const expectEqual = (what: string, actual: unknown, expected: unknown) => {
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      found.push(`${path} ${what}: docs ${JSON.stringify(actual)}, validation ${JSON.stringify(expected)}`);
    }
  };
  switch (rule.kind) {
    case 'object': {
      expectEqual('type', schema.type, 'object');
      expectEqual('properties', Object.keys(schema.properties ?? {}).sort(), Object.keys(rule.fields).sort());
      expectEqual('required', [...(schema.required ?? [])].sort(), [...(rule.required ?? [])].sort());
      for (const [key, fieldRule] of Object.entries(rule.fields)) {
        const property = schema.properties?.[key];
        if (property) found.push(...differences(fieldRule, property, schemas, `${path}.${key}`));
      }
      break;
    }
    case 'list':
      expectEqual('type', schema.type, 'array');
      expectEqual('minItems', schema.minItems, rule.minItems);
      expectEqual('maxItems', schema.maxItems, rule.maxItems);
      found.push(...differences(rule.items, schema.items ?? {}, schemas, `${path}[]`));
      break;
    case 'choice':
      expectEqual('enum', schema.enum, rule.values);
      break;
    case 'number':
      expectEqual('type', schema.type, rule.integer ? 'integer' : 'number');
      expectEqual('minimum', schema.minimum, rule.min);
      expectEqual('maximum', schema.maximum, rule.max);
      expectEqual('exclusiveMinimum', schema.exclusiveMinimum ?? false, rule.minExclusive ?? false);
      break;
    case 'boolean':
      expectEqual('type', schema.type, 'boolean');
      break;
    case 'color': {
      expectEqual('type', schema.type, 'string');
      const pattern = new RegExp(schema.pattern ?? '');
      const samples = ['#abc', '#A1B2C3', '#a1b2c3d4', 'transparent', 'red', '#abcd', '#abc"'];
      const acceptedByDocs = samples.filter((sample) => pattern.test(sample));
      const acceptedByRule = samples.slice(0, rule.allowsTransparent ? 4 : 3);
      expectEqual('pattern', acceptedByDocs, acceptedByRule);
      break;
    }
    case 'logo':
      expectEqual('type', schema.type, 'string');
      break;
    case 'text':
      expectEqual('type', schema.type, 'string');
      expectEqual('minLength', schema.minLength, 1);
      expectEqual('maxLength', schema.maxLength, rule.maxLength);
      break;
  }
  return found;
}

describe('StyleDto (OpenAPI docs)', () => {
  test('publishes exactly the schema checkStyle enforces, at every level', async () => {
    const schemas = await publishedSchemas();
    expect(schemas.StyleDto).toBeDefined();
    expect(differences(STYLE_RULE, schemas.StyleDto, schemas, 'style')).toEqual([]);
  });
});

import { Controller, Get, INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ApiExtraModels, DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { getMetadataStorage } from 'class-validator';
import { CONTENT_DTO_BY_TYPE, QR_TYPES, QrType, isQrType } from './index';
import { VcardAddressDto } from './vcard-content.dto';

interface PropertySchema {
  description?: string;
  example?: unknown;
  $ref?: string;
  allOf?: { $ref: string }[];
}

interface ObjectSchema {
  properties: Record<string, PropertySchema>;
  required?: string[];
}

/** Required fields per type, (docs/content-types.md). */
const REQUIRED_FIELDS: Record<QrType, string[]> = {
  url: ['url'],
  text: ['text'],
  email: ['to'],
  phone: ['number'],
  sms: ['number'],
  wifi: ['ssid', 'encryption'],
  vcard: [],
  geo: ['latitude', 'longitude'],
  event: ['title', 'start'],
};

function validatedProperties(dto: new () => object): string[] {
  return [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((rule) => rule.propertyName),
    ),
  ];
}

describe('QR types', () => {
  test('every type has a content DTO', () => {
    expect(Object.keys(CONTENT_DTO_BY_TYPE).sort()).toEqual([...QR_TYPES].sort());
  });

  test.each([...QR_TYPES])('isQrType(%j) is true', (type) => {
    expect(isQrType(type)).toBe(true);
  });

  test.each(['URL', 'barcode', '', null, undefined, 1, ['url'], { type: 'url' }])('isQrType(%p) is false', (value) => {
    expect(isQrType(value)).toBe(false);
  });
});

describe('the OpenAPI document shows every content type as validated', () => {
  @ApiExtraModels(...Object.values(CONTENT_DTO_BY_TYPE))
  @Controller()
  class DocumentedController {
    @Get()
    get(): string {
      return '';
    }
  }

  let app: INestApplication;
  let schemas: Record<string, ObjectSchema>;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [DocumentedController] }).compile();
    app = moduleRef.createNestApplication(new FastifyAdapter(), { logger: false });
    await app.init();
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    schemas = document.components?.schemas as Record<string, ObjectSchema>;
  });

  afterAll(async () => {
    await app.close();
  });

  const dtos: [string, new () => object][] = [...Object.entries(CONTENT_DTO_BY_TYPE), ['vcard address', VcardAddressDto]];

  test.each(dtos)('%s: the documented fields are the validated fields', (_type, dto) => {
    expect(Object.keys(schemas[dto.name].properties).sort()).toEqual(validatedProperties(dto).sort());
  });

  test.each(dtos)('%s: every field has a description and an example or a schema', (_type, dto) => {
    for (const [name, property] of Object.entries(schemas[dto.name].properties)) {
      expect({ name, description: typeof property.description }).toEqual({ name, description: 'string' });
      const hasSchema = property.$ref !== undefined || property.allOf !== undefined;
      expect({ name, exampleOrSchema: property.example !== undefined || hasSchema }).toEqual({ name, exampleOrSchema: true });
    }
  });

  test.each(Object.entries(REQUIRED_FIELDS))('%s: the required fields are %j', (type, required) => {
    expect([...(schemas[CONTENT_DTO_BY_TYPE[type as QrType].name].required ?? [])].sort()).toEqual([...required].sort());
  });

  test('the vCard address refers to its own schema', () => {
    expect(JSON.stringify(schemas.VcardContentDto.properties.address)).toContain('#/components/schemas/VcardAddressDto');
  });
});

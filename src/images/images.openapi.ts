import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, type ApiOperationOptions, type ApiQueryOptions, type ApiResponseOptions } from '@nestjs/swagger';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses } from '../common/openapi/error-responses';
import { ApiQrCodeIdParam, QR_CODE_NOT_FOUND } from '../qrcodes/qr-codes.controller';
import { EXPORT_FORMATS } from '../rendering/export/export-file';
import {
  DEFAULT_DPI,
  DEFAULT_EXPORT_SIZE,
  MAX_BLEED_MM,
  MAX_DPI,
  MAX_EXPORT_SIZE,
  MAX_WIDTH_MM,
  MIN_DPI,
  MIN_EXPORT_SIZE,
  MIN_MODULE_MM,
  MIN_WIDTH_MM,
} from '../rendering/export/print-size';
import { MAX_SIZE, MIN_SIZE } from '../rendering/image-size-range';
import { IMAGE_FORMATS } from './dto/image.query';

const SMALL_MODULES_WARNING_DOC = {
  description:
    'Present when modules are narrower than 2 px at the requested size, so the image may not decode ' +
    '(docs/styling-and-scannability.md#which-sizes-decode). ' +
    'Format of RFC 7234 (code 199); the text names the size to use instead.',
  schema: {
    type: 'string',
    example: '199 - "modules are narrower than 2 px at this size; the image may not decode; use size 242 or more"',
  },
};

const MIN_DECODABLE_SIZE_DOC = {
  description:
    "The smallest `size` (pixels) at which this code's image decodes: its modules are 2 px wide there, with a light border of one module at least. " +
    'A smaller size in the allowed range is still answered, but its image may not decode (below 1 px a module, none does). ' +
    `At least ${MIN_SIZE}; depends on the encoded text and the style, not on the requested size`,
  schema: { type: 'integer', minimum: MIN_SIZE, maximum: MAX_SIZE, example: 242 },
};

const IMAGE_OPERATION: ApiOperationOptions = {
  operationId: 'getQrCodeImage',
  summary: 'The QR code as an SVG image',
  description:
    "A dynamic code's image encodes its short link; a static code's, its content. Cached (Cache-Control: public, max-age=3600); " +
    'send the ETag back in If-None-Match to get 304 when it has not changed. Every size in the range is answered, but not ' +
    'every size decodes: the image decodes from the size the X-QR-Min-Decodable-Size header names ' +
    '(modules 2 px wide, a one-module light border) upward; ' +
    'below it (a long static content at a small size) a Warning header says so. A frame (style.frameOptions) is drawn around ' +
    'the code and adds to the image; a size at which its text would be too small to read is refused (400 naming size). ' +
    'PNG and PDF files: GET /api/v1/qrcodes/{id}/export.',
};

/** In the order the document lists them. */
const IMAGE_QUERIES: ApiQueryOptions[] = [
  { name: 'format', required: false, enum: IMAGE_FORMATS, description: 'Only svg' },
  {
    name: 'size',
    required: false,
    schema: { type: 'integer', minimum: MIN_SIZE, maximum: MAX_SIZE, default: 300 },
    description: `Width and height in pixels, ${MIN_SIZE} to ${MAX_SIZE}`,
  },
];

const IMAGE_RESPONSES: ApiResponseOptions[] = [
  {
    status: 200,
    description: 'The SVG document',
    headers: {
      ETag: { description: 'Version of this image', schema: { type: 'string', example: '"r1.v1.s300"' } },
      'Cache-Control': { schema: { type: 'string', example: 'public, max-age=3600' } },
      'X-QR-Min-Decodable-Size': MIN_DECODABLE_SIZE_DOC,
      Warning: SMALL_MODULES_WARNING_DOC,
    },
    content: {
      'image/svg+xml': {
        schema: { type: 'string', example: '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300">…</svg>' },
      },
    },
  },
  {
    status: 304,
    description: 'Not modified: If-None-Match names the current ETag',
    headers: { 'X-QR-Min-Decodable-Size': MIN_DECODABLE_SIZE_DOC },
  },
];

const IMAGE_ERRORS = {
  400: {
    description: "size out of range, a format other than svg, or a size at which the frame's text would be too small to read",
    message: 'Validation failed: size must not be greater than 2000',
    errors: [{ field: 'size', message: 'size must not be greater than 2000' }],
  },
  ...QR_CODE_NOT_FOUND,
  ...API_KEY_ROUTE_ERRORS,
};

/** The OpenAPI description of GET /api/v1/qrcodes/{id}/image. */
export function ApiImageOperation(): MethodDecorator {
  return applyDecorators(
    ApiOperation(IMAGE_OPERATION),
    ...IMAGE_QUERIES.map((query) => ApiQuery(query)),
    ApiQrCodeIdParam(),
    ...IMAGE_RESPONSES.map((response) => ApiResponse(response)),
    ApiErrorResponses(IMAGE_ERRORS),
  );
}

const EXPORT_HEADERS = {
  'Content-Disposition': {
    description: 'attachment, named after the code: `filename` in ASCII, `filename*` in UTF-8 (RFC 6266, RFC 8187)',
    schema: { type: 'string', example: `attachment; filename="Menu Sommer.png"; filename*=UTF-8''Men%C3%BC%20Sommer.png` },
  },
  ETag: { description: 'Version of this file', schema: { type: 'string', example: '"r1.v1.x.png.w40.d300"' } },
  'Cache-Control': { schema: { type: 'string', example: 'public, max-age=3600' } },
  'X-QR-Module-Size-Mm': {
    description: `Printed width of one module in millimetres: at width_mm, or at dpi for a size in pixels. Print needs at least ${MIN_MODULE_MM}.`,
    schema: { type: 'number', example: 1.017 },
  },
  Warning: {
    description:
      'Present when a PNG or SVG sized in pixels (or a PNG at a low dpi) has modules narrower than 2 px: the file is made but may ' +
      'not decode; the text names what to change. RFC 7234 format, code 199.',
    schema: {
      type: 'string',
      example: '199 - "modules are 1.5 px wide, below the 2 px images decode from; the image may not decode; use size 242 or more"',
    },
  },
};

const BINARY = { type: 'string', format: 'binary' };

const TOO_NARROW_EXAMPLE =
  "width_mm: at 10 mm the code's 29 modules (plus quiet zone) are 0.254 mm wide, " +
  `below the ${MIN_MODULE_MM} mm a printed module needs to scan reliably; use width_mm 13 or more`;

const EXPORT_OPERATION: ApiOperationOptions = {
  operationId: 'exportQrCode',
  summary: 'The QR code as a PNG, PDF or SVG file, sized in pixels or for print',
  description:
    'A download of the code as /image draws it, frame included. PNG is rendered from the SVG with the resolution (dpi) written in ' +
    'the file; PDF is vectors (paths, gradients as PDF gradients, the logo embedded), one page of the code and its frame plus ' +
    '`bleed_mm`; SVG is the image document, in millimetres when `width_mm` is given. Size by `size` (pixels) or by `width_mm` ' +
    '(the printed width of the code with its quiet zone; a frame adds to it) at `dpi`. ' +
    `A printed width whose modules would be narrower than ${MIN_MODULE_MM} mm ` +
    'is refused (400 naming width_mm and the smallest width that works). Cached per version of the code and parameters; send the ' +
    'ETag back in If-None-Match to get 304.',
};

/** In the order the document lists them. */
const EXPORT_QUERIES: ApiQueryOptions[] = [
  {
    name: 'bleed_mm',
    required: false,
    schema: { type: 'number', minimum: 0, maximum: MAX_BLEED_MM, multipleOf: 0.01, default: 0 },
    description: "PDF only: margin added on every side of the page, filled with the drawing's edge colour, to be trimmed off.",
  },
  {
    name: 'dpi',
    required: false,
    schema: { type: 'integer', minimum: MIN_DPI, maximum: MAX_DPI, default: DEFAULT_DPI },
    description:
      "Resolution: the PNG's pixels per inch (written in the file) and the grid the code is laid out on. " +
      `A PNG is at most ${MAX_EXPORT_SIZE} px wide.`,
    example: 300,
  },
  {
    name: 'width_mm',
    required: false,
    schema: { type: 'number', minimum: MIN_WIDTH_MM, maximum: MAX_WIDTH_MM, multipleOf: 0.01 },
    description: 'Printed width of the code with its quiet zone, millimetres; a frame adds to it. Not with size.',
    example: 40,
  },
  {
    name: 'size',
    required: false,
    schema: { type: 'integer', minimum: MIN_EXPORT_SIZE, maximum: MAX_EXPORT_SIZE, default: DEFAULT_EXPORT_SIZE },
    description: `Width of the code (quiet zone included) in pixels; the default when width_mm is not given. Not with width_mm.`,
  },
  { name: 'format', required: false, enum: EXPORT_FORMATS, description: 'File format, default png', example: 'pdf' },
];

const EXPORT_RESPONSES: ApiResponseOptions[] = [
  {
    status: 200,
    description: 'The file, as an attachment',
    headers: EXPORT_HEADERS,
    content: { 'image/png': { schema: BINARY }, 'application/pdf': { schema: BINARY }, 'image/svg+xml': { schema: { type: 'string' } } },
  },
  {
    status: 304,
    description: 'Not modified: If-None-Match names the current ETag',
    headers: { ETag: EXPORT_HEADERS.ETag, 'X-QR-Module-Size-Mm': EXPORT_HEADERS['X-QR-Module-Size-Mm'] },
  },
];

const EXPORT_ERRORS = {
  400: {
    description:
      'An unknown format, a size, width_mm, dpi or bleed_mm out of range or combined wrongly, a print size whose modules ' +
      "would be too small to scan, a PNG beyond 4000 px, or a size at which the frame's text would be too small to read",
    message: `Validation failed: ${TOO_NARROW_EXAMPLE}`,
    errors: [
      {
        field: 'width_mm',
        message: TOO_NARROW_EXAMPLE,
      },
    ],
  },
  ...QR_CODE_NOT_FOUND,
  ...API_KEY_ROUTE_ERRORS,
};

/** The OpenAPI description of GET /api/v1/qrcodes/{id}/export. */
export function ApiExportOperation(): MethodDecorator {
  return applyDecorators(
    ApiOperation(EXPORT_OPERATION),
    ...EXPORT_QUERIES.map((query) => ApiQuery(query)),
    ApiQrCodeIdParam(),
    ...EXPORT_RESPONSES.map((response) => ApiResponse(response)),
    ApiErrorResponses(EXPORT_ERRORS),
  );
}

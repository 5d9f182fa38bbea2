import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadAppConfig } from './config/app-config';
import { SCOPE_TABLE_END, SCOPE_TABLE_START, scopeTableOf, withScopeTable } from './infra/openapi/scope-table';
import { previewOpenApiDocument } from './preview-openapi';

const DOC = resolve(__dirname, '../docs/api-keys-and-security.md');

/**
 * The scope table of docs/api-keys-and-security.md#scopes is what the routes' `@RequiredScope`
 * says (through the OpenAPI document's `x-required-scope`). When it fails, run
 * `npm run --silent docs:scopes` (it rewrites the table) and commit the docs.
 */
describe('the docs’ scope table', () => {
  let table: string;

  beforeAll(async () => {
    table = scopeTableOf(await previewOpenApiDocument(loadAppConfig({})));
  }, 60_000);

  it('is the one generated from the routes (npm run --silent docs:scopes writes it)', () => {
    const docs = readFileSync(DOC, 'utf8');
    const expected = withScopeTable(docs, table);
    if (docs !== expected) {
      throw new Error(
        `docs/api-keys-and-security.md's scope table differs from the routes; run \`npm run --silent docs:scopes\`. Expected:\n${table}`,
      );
    }
    expect(docs).toContain(`${SCOPE_TABLE_START}\n${table}\n${SCOPE_TABLE_END}`);
  });

  it('covers the routes the first hour uses: analytics, exports, resolve, history, domains, gs1, sharing, tags, brand kits', () => {
    for (const route of [
      '`GET /api/v1/analytics`',
      '`POST /api/v1/exports`',
      '`GET /api/v1/qrcodes.csv`',
      '`POST /api/v1/qrcodes/{id}/resolve`',
      '`GET /api/v1/qrcodes/{id}/history`',
      '`POST /api/v1/domains`',
      '`GET /api/v1/gs1/items`',
      '`POST /api/v1/qrcodes/{id}/share-links`',
      '`GET /api/v1/tags`',
      '`POST /api/v1/brand-kits`',
    ])
      expect(table).toContain(route);
  });
});

describe('scopeTableOf', () => {
  it('lists each scope’s operations by path and method, says when a scope guards nothing, and refuses an unknown scope', () => {
    const doc = (paths: Record<string, unknown>) => ({ openapi: '3.0.0', info: { title: 't', version: '1' }, paths }) as never;
    const table = scopeTableOf(
      doc({
        '/b': { delete: { 'x-required-scope': 'qrcodes:write' }, get: { 'x-required-scope': 'qrcodes:read' } },
        '/a': { post: { 'x-required-scope': 'qrcodes:write' } },
        '/open': { get: {} },
      }),
    );
    expect(table.split('\n').slice(0, 4)).toEqual([
      '| scope | routes |',
      '|---|---|',
      '| `qrcodes:read` | `GET /b` |',
      '| `qrcodes:write` | `POST /a`, `DELETE /b` |',
    ]);
    expect(table).toContain('| `audit:write` | no route yet |');
    expect(table).not.toContain('/open');
    expect(() => scopeTableOf(doc({ '/x': { get: { 'x-required-scope': 'coffee:read' } } }))).toThrow(/unknown scope coffee:read/);
    expect(() => withScopeTable('no markers here', table)).toThrow(/markers are missing/);
  });
});

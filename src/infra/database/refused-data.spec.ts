import { isForeignKeyViolation, isRefusedData, isUniqueViolation } from './refused-data';

describe('errors of refused data', () => {
  it.each([
    ['a unique violation', { code: '23505' }, true],
    ['a malformed value (invalid text representation)', { code: '22P02' }, true],
    ['a bad COPY row (missing data for a column)', { code: '22P04' }, true],
    ['a statement timeout (query canceled)', { code: '57014' }, false],
    ['a lost connection', new Error('Connection terminated unexpectedly'), false],
    ['a deadlock', { code: '40P01' }, false],
    ['nothing', null, false],
  ])('isRefusedData: %s -> %s', (_label, error, expected) => {
    expect(isRefusedData(error)).toBe(expected);
  });

  it.each([
    ['pg', { code: '23505' }, true],
    ['Prisma', { code: 'P2002' }, true],
    ["Prisma's adapter", { kind: 'UniqueConstraintViolation' }, true],
    ['wrapped in a cause', { message: 'x', cause: { code: '23505' } }, true],
    ['in meta', { code: 'P2010', meta: { code: '23505' } }, true],
    ['a foreign-key violation', { code: '23503' }, false],
  ])('isUniqueViolation: %s -> %s', (_label, error, expected) => {
    expect(isUniqueViolation(error)).toBe(expected);
  });

  it.each([
    ['pg', { code: '23503' }, true],
    ['Prisma', { code: 'P2003' }, true],
    ["Prisma's adapter, in a cause", { cause: { kind: 'ForeignKeyConstraintViolation' } }, true],
    ['a unique violation', { code: '23505' }, false],
  ])('isForeignKeyViolation: %s -> %s', (_label, error, expected) => {
    expect(isForeignKeyViolation(error)).toBe(expected);
  });
});

describe('errors as Prisma wraps them', () => {
  const prismaRawError = (code: string, kind: string) => ({
    code: 'P2010',
    message: `Invalid \`prisma.$queryRawUnsafe()\` invocation:\n\nRaw query failed. Code: \`${code}\`. Message: \`...\``,
    meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind, originalCode: code } } },
  });

  it('finds the violation inside a failed raw query (P2010)', () => {
    expect(isForeignKeyViolation(prismaRawError('23503', 'ForeignKeyConstraintViolation'))).toBe(true);
    expect(isUniqueViolation(prismaRawError('23505', 'UniqueConstraintViolation'))).toBe(true);
    expect(isRefusedData(prismaRawError('22021', 'postgres'))).toBe(true);
    expect(isUniqueViolation(prismaRawError('23503', 'ForeignKeyConstraintViolation'))).toBe(false);
  });
});

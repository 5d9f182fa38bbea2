import { auditChanges } from './audit-changes';

describe('auditChanges', () => {
  it('keeps only the fields an update changed, dates and objects compared by value', () => {
    const at = '2027-01-01T00:00:00.000Z';
    expect(
      auditChanges({
        before: { name: 'a', style: { fg: '#000' }, expires_at: new Date(at) },
        after: { name: 'b', style: { fg: '#000' }, expires_at: new Date(at) },
      }),
    ).toEqual({ before: { name: 'a' }, after: { name: 'b' } });
  });

  it('gives null (no entry) for an update that changed nothing, however its objects order their keys', () => {
    const rules = [{ conditions: { device: ['mobile'] }, target: 'https://example.com/m' }];
    const before = { name: 'a', rules, utm: { source: 'qr', medium: 'print' }, password: 'h1', folder_id: null };
    const after = { name: 'a', rules: structuredClone(rules), utm: { medium: 'print', source: 'qr' }, password: 'h1', folder_id: undefined };
    expect(auditChanges({ before, after, secretFields: ['password'] })).toBeNull();
  });

  it('records a secret as "changed", never its value', () => {
    expect(auditChanges({ before: { url: 'x', secret: 's1' }, after: { url: 'x', secret: 's2' }, secretFields: ['secret'] })).toEqual({
      before: { secret: 'changed' },
      after: { secret: 'changed' },
    });
    expect(auditChanges({ after: { url: 'x', secret: 's1' }, secretFields: ['secret'] })).toEqual({ after: { url: 'x', secret: 'changed' } });
  });

  it('records a secret set or removed as "changed" on the side that has one and null on the other', () => {
    expect(auditChanges({ before: { password: null }, after: { password: 'hash' }, secretFields: ['password'] })).toEqual({
      before: { password: null },
      after: { password: 'changed' },
    });
    expect(auditChanges({ before: { password: 'hash' }, after: { password: null }, secretFields: ['password'] })).toEqual({
      before: { password: 'changed' },
      after: { password: null },
    });
  });

  it('gives a create after only, a delete before only, a bulk write its ids', () => {
    expect(auditChanges({ after: { name: 'n' } })).toEqual({ after: { name: 'n' } });
    expect(auditChanges({ before: { name: 'n' } })).toEqual({ before: { name: 'n' } });
    expect(auditChanges({ ids: ['a', 'b'], after: { name: 'n' } })).toEqual({ ids: ['a', 'b'] });
  });
});

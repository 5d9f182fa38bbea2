import { erasureDays, resolveErasureBefore, resolveExportWindow, visitorsKeptFor } from './scan-history-window';

const NOW = new Date('2026-11-27T10:00:00.000Z');

describe('resolveExportWindow', () => {
  it.each([
    [{}, '1970-01-01T00:00:00.000Z', NOW.toISOString()],
    [{ from: '2026-11-01T00:00:00+01:00' }, '2026-10-31T23:00:00.000Z', NOW.toISOString()],
    [{ from: '2000-01-01T00:00Z', to: '2026-11-01T00:00:00.5Z' }, '2000-01-01T00:00:00.000Z', '2026-11-01T00:00:00.500Z'],
  ])('%j spans %s to %s (no maximum)', (query, from, to) => {
    expect(resolveExportWindow(query, NOW)).toEqual({ ok: true, value: { from: new Date(from), to: new Date(to) } });
  });

  it.each([
    [{ from: 'yesterday' }, 'from'],
    [{ to: '2026-02-30T00:00:00Z' }, 'to'],
    [{ from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' }, 'from'],
    [{ from: '2026-11-01T00:00:00Z', to: '2026-11-01T00:00:00Z' }, 'from'],
    [{ from: '2026-12-01T00:00:00Z' }, 'from'],
  ])('%j is refused naming %s', (query, field) => {
    const check = resolveExportWindow(query, NOW);
    expect(check.ok ? [] : check.errors.map((error) => error.field)).toEqual([field]);
  });
});

describe('resolveErasureBefore', () => {
  it('reads an ISO 8601 date-time, a space as the offset sign', () => {
    expect(resolveErasureBefore('2026-11-01T12:00:00 01:00')).toEqual({ ok: true, value: new Date('2026-11-01T11:00:00.000Z') });
  });

  it.each([undefined, '', 'now', '2026-11-01', '1969-12-31T23:59:59Z'])('refuses %j naming before', (text) => {
    const check = resolveErasureBefore(text);
    expect(check.ok ? [] : check.errors.map((error) => error.field)).toEqual(['before']);
  });
});

describe('erasureDays', () => {
  it.each([
    ['2026-11-26T12:00:00.000Z', { floor: '2026-11-26', ceil: '2026-11-27', cut: true }],
    ['2026-11-26T00:00:00.001Z', { floor: '2026-11-26', ceil: '2026-11-27', cut: true }],
    ['2026-11-26T00:00:00.000Z', { floor: '2026-11-26', ceil: '2026-11-26', cut: false }],
    ['2026-12-31T23:59:59.999Z', { floor: '2026-12-31', ceil: '2027-01-01', cut: true }],
  ])('%s', (before, days) => {
    expect(erasureDays(new Date(before))).toEqual(days);
  });
});

describe('visitorsKeptFor', () => {
  it.each([
    ['2026-11-27', true],
    ['2026-11-26', true],
    ['2026-11-25', false],
    ['2026-11-28', false],
  ])('%s at 2026-11-27T10:00Z: %s', (day, kept) => {
    expect(visitorsKeptFor(day, NOW)).toBe(kept);
  });
});

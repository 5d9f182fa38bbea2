import { checkContent } from './check-content';
import { mergeContent } from './merge-content';

describe('mergeContent', () => {
  const card = { first_name: 'Ada', last_name: 'Lovelace', title: 'Analyst', address: { city: 'London', country: 'UK' } };

  it('keeps the fields not sent and replaces the ones sent', () => {
    expect(mergeContent(card, { title: 'Chief Mathematician' })).toEqual({ ...card, title: 'Chief Mathematician' });
  });

  it('removes a field sent as null, and merges nested objects field by field', () => {
    expect(mergeContent(card, { title: null, address: { city: 'Paris', country: null } })).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      address: { city: 'Paris' },
    });
  });

  it('replaces a nested object that is not an object on either side', () => {
    expect(mergeContent({ address: 'x' }, { address: { city: 'Paris' } })).toEqual({ address: { city: 'Paris' } });
    expect(mergeContent(card, { address: 'Paris' })).toMatchObject({ address: 'Paris' });
  });

  it('keeps a `__proto__` key as a field, so the content check refuses it', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const merged = mergeContent({ url: 'https://example.com' }, patch);
    expect(Object.keys(merged)).toEqual(['url', '__proto__']);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    const check = checkContent('url', merged);
    expect(check.ok ? [] : check.errors.map((error) => error.field)).toEqual(['content.__proto__']);
  });

  it('changes neither input', () => {
    const current = structuredClone(card);
    const patch = { address: { city: 'Paris' } };
    mergeContent(current, patch);
    expect(current).toEqual(card);
    expect(patch).toEqual({ address: { city: 'Paris' } });
  });

  it('gives content that is then checked whole: a merge can still be refused', () => {
    const wifi = { ssid: 'Cafe', password: 'secret12', encryption: 'WPA' };
    const open = checkContent('wifi', mergeContent(wifi, { encryption: 'nopass' }));
    expect(open.ok).toBe(false);
    expect(open.ok ? [] : open.errors.map((error) => error.field)).toEqual(['content.password']);
    const openWithoutPassword = checkContent('wifi', mergeContent(wifi, { encryption: 'nopass', password: null }));
    expect(openWithoutPassword).toMatchObject({ ok: true, content: { ssid: 'Cafe', encryption: 'nopass' } });
  });
});

import { checkTagList, checkTagName, editTagList, MAX_TAGS_PER_CODE, normalizeTagName, tagNameProblem } from './tag-names';

describe('tag names', () => {
  it.each([
    ['  spring  ', 'spring'],
    ['store\t 12', 'store 12'],
    ['e\u0301te\u0301', 'été'],
    ['Spring', 'Spring'],
  ])('normalizes %j to %j', (raw, name) => {
    expect(normalizeTagName(raw)).toBe(name);
  });

  it.each([
    ['spring', null],
    ['a', null],
    ['x'.repeat(50), null],
    ['🌸'.repeat(50), null],
    ['', 'must not be blank'],
    ['x'.repeat(51), 'must be at most 50 characters (has 51)'],
    ['a|b', 'must not contain control characters, "|" or ","'],
    ['a,b', 'must not contain control characters, "|" or ","'],
    ['a\u0000b', 'must not contain control characters, "|" or ","'],
    ['a\u200bb', 'must not contain control characters, "|" or ","'],
    ['a\ud800b', 'must not contain control characters, "|" or ","'],
  ])('%j: %s', (name, problem) => {
    expect(tagNameProblem(name)).toBe(problem);
  });

  it.each([
    [42, 'name must be a string'],
    [null, 'name must be a string'],
    ['   ', 'name must not be blank'],
  ])('refuses %j as a name', (raw, message) => {
    expect(checkTagName(raw, 'name')).toEqual({ ok: false, error: { field: 'name', message } });
  });

  it.each([
    [
      ['Spring', 'spring', 'SPRING ', 'store-12'],
      ['Spring', 'store-12'],
    ],
    [[], []],
    [
      ['b', 'a'],
      ['b', 'a'],
    ],
  ])('reads the list %j as %j', (raw, tags) => {
    expect(checkTagList(raw)).toEqual({ ok: true, tags });
  });

  it('names each bad item by its index, and refuses more than 20 distinct tags', () => {
    expect(checkTagList(['ok', '', 3])).toEqual({
      ok: false,
      errors: [
        { field: 'tags[1]', message: 'tags[1] must not be blank' },
        { field: 'tags[2]', message: 'tags[2] must be a string' },
      ],
    });
    const many = Array.from({ length: MAX_TAGS_PER_CODE + 1 }, (_, index) => `t${index}`);
    expect(checkTagList(many)).toEqual({ ok: false, errors: [{ field: 'tags', message: 'tags must hold at most 20 tags (has 21)' }] });
    expect(checkTagList([...many.slice(0, 20), 'T0'])).toEqual({ ok: true, tags: many.slice(0, 20) });
    expect(checkTagList('spring')).toEqual({ ok: false, errors: [{ field: 'tags', message: 'tags must be an array of tag names' }] });
  });

  it.each([
    [['a', 'b'], ['c'], [], ['a', 'b', 'c']],
    [['a', 'b'], ['B'], [], null],
    [['a', 'b'], [], ['A'], ['b']],
    [[], [], ['a'], null],
  ])('edits %j adding %j removing %j: %j', (current, add, remove, next) => {
    expect(editTagList(current, add, remove)).toEqual(next);
  });
});

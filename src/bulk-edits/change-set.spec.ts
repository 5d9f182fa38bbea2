import { type ChangeSet, checkChangeSet, type ChangeSetInput, type PlannableCode, planChange } from './change-set';

const code = (overrides: Partial<PlannableCode> = {}): PlannableCode => ({
  type: 'url',
  isDynamic: true,
  content: { url: 'https://old.example/spring?x=1' },
  status: 'active',
  folderId: null,
  expiresAt: null,
  domainId: null,
  utm: null,
  brandKitId: null,
  style: {},
  tags: ['spring'],
  ...overrides,
});

const change = (input: ChangeSetInput): ChangeSet => {
  const check = checkChangeSet(input);
  if (!check.ok) throw new Error(JSON.stringify(check.errors));
  return check.change;
};

describe('checkChangeSet', () => {
  it.each<[string, ChangeSetInput, string[]]>([
    ['nothing asked', {}, ['set']],
    ['an empty set', { set: {} }, ['set']],
    ['a bad tag name', { add_tags: ['a|b'] }, ['add_tags[0]']],
    ['a tag both added and removed, in any case', { add_tags: ['Spring'], remove_tags: ['spring'] }, ['remove_tags']],
    ['too many tags to add', { add_tags: Array.from({ length: 21 }, (_, index) => `t${index}`) }, ['add_tags']],
    ['tags not a list', { remove_tags: 'spring' }, ['remove_tags']],
    ['a target replacement that is not a URL', { replace_target: { from: 'old.example', to: 'https://new.example/' } }, ['replace_target.from']],
    ['a javascript: target', { replace_target: { from: 'https://old.example/', to: 'javascript:alert(1)//' } }, ['replace_target.to']],
    ['a replacement that changes nothing', { replace_target: { from: 'https://a.example/', to: 'https://a.example/' } }, ['replace_target.to']],
    ['a missing side', { replace_target: { from: 'https://a.example/' } }, ['replace_target.to']],
  ])('refuses %s', (_, input, fields) => {
    const check = checkChangeSet(input);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.errors.map((error) => error.field)).toEqual(fields);
  });

  it('normalizes tag names and keeps the rest', () => {
    expect(
      checkChangeSet({
        set: { status: 'paused' },
        add_tags: [' summer ', 'SUMMER'],
        replace_target: { from: 'https://a.example/', to: 'https://b.example/' },
      }),
    ).toEqual({
      ok: true,
      change: {
        set: { status: 'paused' },
        addTags: ['summer'],
        removeTags: [],
        replaceTarget: { from: 'https://a.example/', to: 'https://b.example/' },
      },
    });
  });
});

describe('planChange', () => {
  it.each<[string, Partial<PlannableCode>, ChangeSetInput, ReturnType<typeof planChange>]>([
    ['a status the code already has', {}, { set: { status: 'active' } }, { kind: 'unchanged' }],
    [
      'a new status',
      {},
      { set: { status: 'paused' } },
      { kind: 'change', update: { status: 'paused' }, before: { status: 'active' }, after: { status: 'paused' } },
    ],
    ['a link field on a static code', { isDynamic: false }, { set: { status: 'paused', utm: { source: 'x' } } }, { kind: 'unchanged' }],
    [
      'a folder on a static code',
      { isDynamic: false },
      { set: { folder_id: 'f1' } },
      { kind: 'change', update: { folder_id: 'f1' }, before: { folder_id: null }, after: { folder_id: 'f1' } },
    ],
    [
      'the same expiry written otherwise',
      { expiresAt: new Date('2030-01-01T00:00:00Z') },
      { set: { expires_at: '2030-01-01T00:00:00+00:00' } },
      { kind: 'unchanged' },
    ],
    [
      'tags added and removed',
      { tags: ['spring', 'store-1'] },
      { add_tags: ['summer'], remove_tags: ['STORE-1'] },
      { kind: 'change', update: { tags: ['spring', 'summer'] }, before: { tags: ['spring', 'store-1'] }, after: { tags: ['spring', 'summer'] } },
    ],
    ['a tag it has already', {}, { add_tags: ['Spring'] }, { kind: 'unchanged' }],
    [
      'the target prefix replaced',
      {},
      { replace_target: { from: 'https://old.example/', to: 'https://new.example/en/' } },
      {
        kind: 'change',
        update: { content: { url: 'https://new.example/en/spring?x=1' } },
        before: { target: 'https://old.example/spring?x=1' },
        after: { target: 'https://new.example/en/spring?x=1' },
      },
    ],
    [
      'a target that does not start with the prefix',
      {},
      { replace_target: { from: 'https://other.example/', to: 'https://new.example/' } },
      { kind: 'unchanged' },
    ],
    [
      'a prefix on a code of another type',
      { type: 'text', content: { text: 'https://old.example/' } },
      { replace_target: { from: 'https://old.example/', to: 'https://n.example/' } },
      { kind: 'unchanged' },
    ],
    [
      'one tag too many',
      { tags: Array.from({ length: 20 }, (_, index) => `t${index}`) },
      { add_tags: ['new'] },
      { kind: 'refused', errors: [{ field: 'add_tags', message: 'add_tags: the code would have 21 tags; at most 20' }] },
    ],
  ])('%s', (_, overrides, input, plan) => {
    expect(planChange(code(overrides), change(input))).toEqual(plan);
  });
});

import { checkKitLook, drawnStyle, kitStyle, type KitLook, kitStyleOverlap, lockedFieldChanges } from './kit-style';

const LOGO = 'data:image/png;base64,AAAA';
const kit: KitLook & { name: string } = {
  name: 'Acme',
  style: {
    dotsOptions: { type: 'rounded', gradient: { rotation: 0, colorStops: [{ offset: 0, color: '#112233' }] } },
    backgroundOptions: { color: '#ffffff', round: 0.2 },
    shape: 'square',
  },
  frame: { type: 'banner-bottom', text: 'SCAN ME', color: '#112233' },
  logo: LOGO,
};

describe('kit style', () => {
  it('puts the frame and the logo into the style', () => {
    expect(kitStyle(kit)).toEqual({ ...kit.style, frameOptions: kit.frame, image: LOGO });
    expect(kitStyle({ style: { margin: 2 }, frame: null, logo: null })).toEqual({ margin: 2 });
  });

  it.each([
    ['no kit: the own style', null, { margin: 4 }, { margin: 4 }],
    ['nothing own: the kit', kit, {}, kitStyle(kit)],
    [
      'an own key of an options object beside the kit keys',
      kit,
      { backgroundOptions: { round: 0 } },
      { ...kitStyle(kit), backgroundOptions: { color: '#ffffff', round: 0 } },
    ],
    [
      'an own colour replacing the kit gradient whole',
      kit,
      { dotsOptions: { color: '#000000' } },
      { ...kitStyle(kit), dotsOptions: { type: 'rounded', color: '#000000' } },
    ],
    ['a whole value replacing the kit one', kit, { shape: 'circle', image: 'data:x' }, { ...kitStyle(kit), shape: 'circle', image: 'data:x' }],
    [
      'the frame text of the code over the kit frame',
      kit,
      { frameOptions: { text: 'MENU' } },
      { ...kitStyle(kit), frameOptions: { ...kit.frame, text: 'MENU' } },
    ],
  ])('%s', (_, under, own, drawn) => {
    expect(drawnStyle(under, own)).toEqual(drawn);
  });

  it.each([
    ['nothing locked set', { shape: 'circle', dotsOptions: { type: 'dots' } }, []],
    ['the kit own values again', { backgroundOptions: { color: '#ffffff' }, image: LOGO }, []],
    ['a colour', { backgroundOptions: { color: '#eeeeee' } }, ['style.backgroundOptions.color']],
    ['a colour the kit leaves unset', { cornersDotOptions: { color: '#000000' } }, ['style.cornersDotOptions.color']],
    ['the logo and a frame colour', { image: 'data:x', frameOptions: { textColor: '#000000' } }, ['style.frameOptions.textColor', 'style.image']],
  ])('an enforced kit: %s', (_, own, fields) => {
    const errors = lockedFieldChanges(kit, own, 'on brand.example');
    expect(errors.map((error) => error.field)).toEqual(fields);
    for (const error of errors) expect(error.message).toBe(`${error.field} is locked by the brand kit "Acme", enforced on brand.example`);
  });

  it('refuses a frame or a logo inside a kit style', () => {
    expect(kitStyleOverlap({ image: LOGO, frameOptions: {} }).map((error) => error.field)).toEqual(['style.frameOptions', 'style.image']);
    expect(kitStyleOverlap({})).toEqual([]);
  });
});

describe('checkKitLook', () => {
  it('accepts a kit that scans', () => {
    expect(checkKitLook({ style: { dotsOptions: { color: '#112233' } }, frame: { type: 'banner-bottom' }, logo: null })).toEqual([]);
  });

  it.each([
    ['a low contrast', { style: { dotsOptions: { color: '#ffffff' }, backgroundOptions: { color: '#fefefe' } }, frame: null, logo: null }, 'style.'],
    ['a frame of an unknown type', { style: {}, frame: { type: 'zigzag' }, logo: null }, 'frame.type'],
    ['a logo that is not a data URI', { style: {}, frame: null, logo: 'https://logo.example/a.png' }, 'logo'],
    ['a logo inside the style', { style: { image: 'data:x' }, frame: null, logo: null }, 'style.image'],
  ])('refuses %s, naming the kit field', (_, kit, field) => {
    const errors = checkKitLook(kit);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0].field.startsWith(field)).toBe(true);
    expect(errors[0].message.startsWith(errors[0].field)).toBe(true);
  });
});

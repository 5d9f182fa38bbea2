import vCard from 'vcf';
import { HOSTILE } from './__fixtures__/hostile-page';
import { vcardFile } from './vcard-file';

/** vcf keeps TEXT values escaped; unescaping them gives back what was stored. */
const unescapeText = (value: string) =>
  value.replace(/\\(.)/g, (_match, character: string) => (character === 'n' || character === 'N' ? '\n' : character));

function parseOne(text: string): vCard {
  expect(text).toMatch(/^BEGIN:VCARD\r\nVERSION:3\.0\r\n/);
  expect(text.endsWith('END:VCARD\r\n')).toBe(true);
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  const cards = vCard.parse(text);
  expect(cards).toHaveLength(1);
  return cards[0];
}

describe('vcardFile', () => {
  it('writes a vCard 3.0 that a vCard parser reads back field for field', () => {
    const card = parseOne(
      vcardFile({
        first_name: 'Ada',
        last_name: 'Lovelace',
        organization: 'Engines Ltd',
        title: 'Chief Mathematician',
        phone: '+44 20 7946 0000',
        mobile: '+44 7700 900123',
        email: 'ada@example.com',
        website: 'https://example.com/ada',
        address: { street: '1 Example St', city: 'London', region: 'Greater London', postcode: 'N1 9GU', country: 'UK' },
        note: 'Met at the fair;\nask, about the engine',
      }),
    );
    const value = (name: string) => (card.get(name) as vCard.Property).valueOf();
    expect([value('fn'), value('n'), value('org'), value('title'), value('email'), value('url')]).toEqual([
      'Ada Lovelace',
      'Lovelace;Ada;;;',
      'Engines Ltd',
      'Chief Mathematician',
      'ada@example.com',
      'https://example.com/ada',
    ]);
    expect((card.get('tel') as vCard.Property[]).map((tel) => [tel.valueOf(), tel.toJSON()[1].type])).toEqual([
      ['+44 20 7946 0000', ['work', 'voice']],
      ['+44 7700 900123', 'cell'],
    ]);
    expect(value('adr')).toBe(';;1 Example St;London;Greater London;N1 9GU;UK');
    expect(unescapeText(value('note'))).toBe('Met at the fair;\nask, about the engine');
  });

  it('hostile values stay inside their property: escaped text, no injected lines, no javascript: URL', () => {
    const text = vcardFile({
      first_name: HOSTILE.lines,
      last_name: HOSTILE.script,
      organization: `${HOSTILE.quotes}${HOSTILE.long}`,
      phone: '+49\r\nURL:javascript:alert(1)',
      website: HOSTILE.javascriptUrl,
      note: `${HOSTILE.lines}\r\nEND:VCARD\r\nBEGIN:VCARD`,
    });
    const card = parseOne(text);
    expect(card.get('url')).toBeUndefined();
    expect(text).not.toMatch(/^URL:/m);
    expect(unescapeText((card.get('fn') as vCard.Property).valueOf())).toBe(`${HOSTILE.lines} ${HOSTILE.script}`.replace(/\r\n/g, '\n'));
    expect(unescapeText((card.get('org') as vCard.Property).valueOf())).toBe(`${HOSTILE.quotes}${HOSTILE.long}`);
    expect((card.get('tel') as vCard.Property).valueOf()).toBe('+49URL:javascript:alert(1)');
    expect(unescapeText((card.get('note') as vCard.Property).valueOf())).toBe(`${HOSTILE.lines}\nEND:VCARD\nBEGIN:VCARD`.replace(/\r\n/g, '\n'));
  });

  it('keeps right-to-left and emoji names in UTF-8, folded between characters', () => {
    const card = parseOne(vcardFile({ first_name: HOSTILE.rtl.repeat(5), last_name: HOSTILE.emoji.repeat(5) }));
    expect((card.get('fn') as vCard.Property).valueOf()).toBe(`${HOSTILE.rtl.repeat(5)} ${HOSTILE.emoji.repeat(5)}`);
  });
});

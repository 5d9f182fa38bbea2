import type { SourceShortLink } from './imported-link';
import { chooseShortLink, type ShortCodeRule } from './short-link-choice';

const link = (text: string): SourceShortLink => {
  const movable = !text.startsWith('!');
  const plain = text.replace('!', '');
  const slash = plain.indexOf('/');
  return { host: plain.slice(0, slash) || null, shortCode: plain.slice(slash + 1), movable };
};
const rule: ShortCodeRule = (code, onDomain) => (/^[\w-]+$/.test(code) && (onDomain || code.length >= 3) ? null : 'not a short code here');

describe('chooseShortLink', () => {
  it.each([
    ['nothing to keep', [], null, null, []],
    ['the branded link on the domain', ['go.acme.example/spring', '!bit.ly/3Kx9'], 'go.acme.example', 'spring', []],
    ['a host the file does not say, on the domain', ['/1'], 'y.acme.example', '1', []],
    ['the branded link on the default host', ['go.acme.example/spring', '!bit.ly/3Kx9'], null, 'spring', []],
    ['a link the source owns: a new one', ['!bit.ly/3Kx9'], 'go.acme.example', null, ['bit.ly/3Kx9 cannot move']],
    ['the one on the domain, the other noted', ['a.example/x', 'go.acme.example/y'], 'go.acme.example', 'y', ['a.example/x is not kept']],
    [
      'a link of another host moves to the domain',
      ['s.old.example/spring'],
      'go.acme.example',
      'spring',
      ['s.old.example/spring moves to go.acme.example/spring'],
    ],
    ['a code the rule refuses: a new one', ['s.acme.example/a/b'], null, null, ['"a/b" cannot be kept (not a short code here)']],
    ['one character only on a domain', ['/1'], null, null, ['"1" cannot be kept']],
  ])('%s', (_, links, domain, shortCode, noted) => {
    const choice = chooseShortLink(links.map(link), domain, rule);
    expect(choice.shortCode).toBe(shortCode);
    expect(choice.notes.map((note) => note.field)).toEqual(noted.map(() => 'short_code'));
    noted.forEach((text, index) => expect(choice.notes[index].message).toContain(text));
  });
});

import { checkStyle, type StyleCheck } from './check-style';
import { findLogoProblem, MAX_LOGO_BYTES } from './logo-data-uri';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff, 0xe0];
const GIF_BYTES = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
const WEBP_BYTES = Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(14)]);
const SVG_WITH_SCRIPT = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

/** Picture bytes of `total` length that start with `signature`. */
function bytesWith(signature: number[], total = 64): Buffer {
  return Buffer.concat([Buffer.from(signature), Buffer.alloc(total - signature.length, 7)]);
}

function dataUri(mediaType: string, bytes: Buffer): string {
  return `data:${mediaType};base64,${bytes.toString('base64')}`;
}

function logoErrors(result: StyleCheck) {
  if (result.ok) throw new Error('expected the logo to be refused');
  return result.errors;
}

describe('logo (style.image)', () => {
  test.each([
    ['PNG', dataUri('image/png', bytesWith(PNG_SIGNATURE))],
    ['JPEG', dataUri('image/jpeg', bytesWith(JPEG_SIGNATURE))],
    ['WebP', dataUri('image/webp', WEBP_BYTES)],
    ['an upper-case header', dataUri('IMAGE/PNG', bytesWith(PNG_SIGNATURE)).replace('data:', 'DATA:').replace('base64', 'BASE64')],
    ['exactly 256 KB', dataUri('image/png', bytesWith(PNG_SIGNATURE, MAX_LOGO_BYTES))],
  ])('%s is accepted and kept as sent', (_, image) => {
    expect(checkStyle({ image })).toEqual({ ok: true, style: { image } });
  });

  const refused: Array<[string, unknown, RegExp]> = [
    ['a javascript: URL', 'javascript:alert(1)', /must be a data: URI of a PNG, JPEG or WebP image/],
    ['an http URL', 'http://evil.example/logo.png', /must be a data: URI/],
    ['an https URL', 'https://example.com/logo.png', /must be a data: URI/],
    ['a file URL', 'file:///etc/passwd', /must be a data: URI/],
    ['a data URI with a leading space', ` ${dataUri('image/png', bytesWith(PNG_SIGNATURE))}`, /must be a data: URI/],
    ['an HTML data URI', dataUri('text/html', Buffer.from('<script>alert(1)</script>')), /must be a data: URI/],
    ['a GIF data URI', dataUri('image/gif', GIF_BYTES), /must be a data: URI/],
    ['a data URI without a type', `data:;base64,${bytesWith(PNG_SIGNATURE).toString('base64')}`, /must be a data: URI/],
    ['an SVG logo with a script', dataUri('image/svg+xml', Buffer.from(SVG_WITH_SCRIPT)), /must not be an SVG image/],
    ['an SVG logo in plain text', `data:image/svg+xml;utf8,${SVG_WITH_SCRIPT}`, /must not be an SVG image/],
    ['a PNG that is not base64', `data:image/png,${bytesWith(PNG_SIGNATURE).toString('latin1')}`, /must be base64-encoded/],
    ['extra parameters', `data:image/png;charset=utf-8;base64,${bytesWith(PNG_SIGNATURE).toString('base64')}`, /must be base64-encoded/],
    [
      'base64 with spaces',
      `data:image/png;base64,${bytesWith(PNG_SIGNATURE)
        .toString('base64')
        .replace(/(.{8})/, '$1 ')}`,
      /is not valid base64/,
    ],
    ['base64 with a bad length', `data:image/png;base64,${bytesWith(PNG_SIGNATURE).toString('base64')}A`, /is not valid base64/],
    ['an empty payload', 'data:image/png;base64,', /is not valid base64/],
    ['a PNG-declared GIF', dataUri('image/png', GIF_BYTES), /is declared as image\/png but its content is not a PNG image/],
    ['a PNG-declared HTML page', dataUri('image/png', Buffer.from('<html><script>alert(1)</script></html>')), /not a PNG image/],
    ['a PNG-declared SVG', dataUri('image/png', Buffer.from(SVG_WITH_SCRIPT)), /not a PNG image/],
    ['a JPEG-declared PNG', dataUri('image/jpeg', bytesWith(PNG_SIGNATURE)), /is declared as image\/jpeg but its content is not a JPEG image/],
    ['a WebP-declared RIFF WAVE', dataUri('image/webp', Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1')), /not a WebP image/],
    ['a PNG one byte over 256 KB', dataUri('image/png', bytesWith(PNG_SIGNATURE, MAX_LOGO_BYTES + 1)), /must be at most 256 KB/],
    ['a 1 MB PNG', dataUri('image/png', bytesWith(PNG_SIGNATURE, 1024 * 1024)), /must be at most 256 KB/],
  ];

  test.each(refused)('%s is refused naming style.image', (_, image, message) => {
    expect(logoErrors(checkStyle({ image }))).toEqual([{ field: 'style.image', message: expect.stringMatching(message) }]);
  });

  test('an oversized logo is refused before it is decoded', () => {
    const huge = `data:image/png;base64,${'A'.repeat(20 * 1024 * 1024)}`;
    const decode = jest.spyOn(Buffer, 'from');
    try {
      expect(findLogoProblem(huge)).toBe('must be at most 256 KB');
      expect(decode).not.toHaveBeenCalled();
    } finally {
      decode.mockRestore();
    }
  });
});

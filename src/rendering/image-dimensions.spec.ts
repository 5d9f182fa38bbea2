import { checkeredLogo } from './__fixtures__/png-data-uri';
import { imageDimensions } from './image-dimensions';

const dataUri = (type: string, bytes: Buffer): string => `data:image/${type};base64,${bytes.toString('base64')}`;

/** SOI, an APP0 segment, then a baseline frame header (SOF0) with the given size. */
function jpegHeader(width: number, height: number, metadataBytes = 16): Buffer {
  const app0 = Buffer.alloc(2 + 2 + metadataBytes);
  app0.writeUInt16BE(0xffe0, 0);
  app0.writeUInt16BE(2 + metadataBytes, 2);
  const sof0 = Buffer.alloc(2 + 2 + 6);
  sof0.writeUInt16BE(0xffc0, 0);
  sof0.writeUInt16BE(8 + 3 * 3, 2);
  sof0[4] = 8;
  sof0.writeUInt16BE(height, 5);
  sof0.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, Buffer.alloc(16)]);
}

function riff(chunk: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(20);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(12 + payload.length, 4);
  header.write('WEBP', 8, 'latin1');
  header.write(chunk, 12, 'latin1');
  header.writeUInt32LE(payload.length, 16);
  return Buffer.concat([header, payload]);
}

describe('imageDimensions', () => {
  it('reads PNG dimensions from the IHDR chunk', () => {
    expect(imageDimensions(checkeredLogo(40, 12))).toEqual({ width: 40, height: 12 });
  });

  it('reads JPEG dimensions from the frame header, past metadata segments', () => {
    expect(imageDimensions(dataUri('jpeg', jpegHeader(640, 480)))).toEqual({ width: 640, height: 480 });
    expect(imageDimensions(dataUri('jpeg', jpegHeader(300, 200, 40_000)))).toEqual({ width: 300, height: 200 });
  });

  it('reads lossy, lossless and extended WebP dimensions', () => {
    const lossy = Buffer.alloc(10);
    lossy.writeUInt16LE(320, 6);
    lossy.writeUInt16LE(240, 8);
    expect(imageDimensions(dataUri('webp', riff('VP8 ', lossy)))).toEqual({ width: 320, height: 240 });

    const lossless = Buffer.alloc(5);
    lossless[0] = 0x2f;
    lossless.writeUInt32LE((100 - 1) | ((50 - 1) << 14), 1);
    expect(imageDimensions(dataUri('webp', riff('VP8L', lossless)))).toEqual({ width: 100, height: 50 });

    const extended = Buffer.alloc(10);
    extended.writeUIntLE(1000 - 1, 4, 3);
    extended.writeUIntLE(2000 - 1, 7, 3);
    expect(imageDimensions(dataUri('webp', riff('VP8X', extended)))).toEqual({ width: 1000, height: 2000 });
  });

  it('answers null for what it cannot read', () => {
    expect(imageDimensions('data:image/png;base64,AAAA')).toBeNull();
    expect(imageDimensions('data:image/gif;base64,R0lGODlhAQABAAAAACw=')).toBeNull();
    expect(imageDimensions('https://example.com/logo.png')).toBeNull();
    expect(imageDimensions(dataUri('jpeg', Buffer.from([0xff, 0xd8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])))).toBeNull();
  });
});

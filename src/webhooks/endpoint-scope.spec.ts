import { wants } from './endpoint-scope';

const code = { id: 'c1', folderId: 'f1' };

describe('wants', () => {
  it.each([
    ['every event, every code', { events: ['*'], folderId: null, qrcodeIds: [] }, 'qrcode.scanned', true],
    ['the type', { events: ['qrcode.created'], folderId: null, qrcodeIds: [] }, 'qrcode.created', true],
    ['another type', { events: ['qrcode.created'], folderId: null, qrcodeIds: [] }, 'qrcode.deleted', false],
    ['its folder', { events: ['*'], folderId: 'f1', qrcodeIds: [] }, 'qrcode.updated', true],
    ['another folder', { events: ['*'], folderId: 'f2', qrcodeIds: [] }, 'qrcode.updated', false],
    ['a listed code', { events: ['*'], folderId: null, qrcodeIds: ['c0', 'c1'] }, 'qrcode.scanned', true],
    ['an unlisted code', { events: ['*'], folderId: null, qrcodeIds: ['c0'] }, 'qrcode.scanned', false],
  ] as const)('%s', (_name, endpoint, type, expected) => {
    expect(wants(endpoint, type, code)).toBe(expected);
  });
});

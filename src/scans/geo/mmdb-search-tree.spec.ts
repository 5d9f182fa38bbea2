import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { Reader } from 'maxmind';
import { BUNDLED_GEO_DATABASE } from './geo-locator';
import { MmdbSearchTree, NOT_AN_ADDRESS, NOT_FOUND, parseIpv4, parseIpv6 } from './mmdb-search-tree';

const bytes = (text: string) => {
  const out = new Uint8Array(16);
  return parseIpv6(text, out) ? Buffer.from(out).toString('hex') : null;
};

describe('parseIpv4', () => {
  it.each([
    ['0.0.0.0', 0],
    ['8.8.8.8', 0x08080808],
    ['255.255.255.255', 0xffffffff],
    ['203.0.113.7', 0xcb007107],
    ['256.1.1.1', -1],
    ['1.2.3', -1],
    ['1.2.3.4.5', -1],
    ['01.2.3.4', -1],
    ['1..3.4', -1],
    ['1.2.3.', -1],
    [' 1.2.3.4', -1],
    ['1.2.3.4a', -1],
    ['', -1],
  ])('%j → %d', (text, expected) => {
    expect(parseIpv4(text)).toBe(expected);
    expect(parseIpv4(text) >= 0).toBe(isIP(text) === 4);
  });
});

describe('parseIpv6', () => {
  it.each([
    ['::', '00000000000000000000000000000000'],
    ['::1', '00000000000000000000000000000001'],
    ['1::', '00010000000000000000000000000000'],
    ['2001:db8::7', '20010db8000000000000000000000007'],
    ['2001:DB8:0:0:0:0:0:7', '20010db8000000000000000000000007'],
    ['1:2:3:4:5:6:7:8', '00010002000300040005000600070008'],
    ['1:2:3:4:5:6::8', '00010002000300040005000600000008'],
    ['::ffff:203.0.113.7', '00000000000000000000ffffcb007107'],
    ['64:ff9b::1.2.3.4', '0064ff9b000000000000000001020304'],
    ['fe80::1%eth0', 'fe800000000000000000000000000001'],
    ['1:2:3:4:5:6:7::', '00010002000300040005000600070000'],
    ['::2:3:4:5:6:7:8', '00000002000300040005000600070008'],
    ['::ffff:1.2.3.4%eth0', '00000000000000000000ffff01020304'],
    ['1::%', null],
    [':::', null],
    ['1:::2', null],
    ['::1:', null],
    ['1:2:3:4:5:6:7:8:9', null],
    ['1::2:3:4:5:6:7:8', null],
    ['1::2::3', null],
    [':1', null],
    ['1:', null],
    ['1:2:3:4:5:6:7', null],
    ['12345::', null],
    ['g::1', null],
    ['::1.2.3', null],
    ['::1.2.3.4:5', null],
    ['1.2.3.4', null],
    ['', null],
  ])('%j → %s', (text, expected) => {
    expect(bytes(text)).toBe(expected);
    expect(bytes(text) !== null).toBe(isIP(text) === 6);
  });
});

describe('parseIpv6 and parseIpv4 against node:net', () => {
  it('agree with isIP on 100,000 strings of address characters', () => {
    let seed = 6;
    const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / 0x1000000;
    const alphabet = '0123456789abcdefABCDEF::::....%';
    const disagreements: string[] = [];
    for (let n = 0; n < 100_000; n++) {
      const length = 2 + Math.floor(next() * 24);
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      if (n % 4 === 0) text = `${text.replace(/[%.]/g, '')}::1.2.3.4`.slice(-length - 9);
      const ours = bytes(text) !== null ? 6 : parseIpv4(text) >= 0 ? 4 : 0;
      if (ours !== isIP(text)) disagreements.push(text);
    }
    expect(disagreements).toEqual([]);
  });
});

describe('MmdbSearchTree against the maxmind reader (the bundled database)', () => {
  const file = readFileSync(require.resolve(BUNDLED_GEO_DATABASE));
  const reader = new Reader(file);
  const tree = new MmdbSearchTree(file, reader.metadata);

  it('finds a record exactly where the reader finds one, and the same record for addresses of the same data, over 20,000 random addresses', () => {
    let seed = 27;
    const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / 0x1000000;
    const byRecord = new Map<number, string>();
    for (let i = 0; i < 10_000; i++) {
      const v4 = [0, 0, 0, 0].map(() => Math.floor(next() * 256)).join('.');
      const v6 = Array.from({ length: 8 }, (_, g) => Math.floor((g === 0 ? 0.125 + next() / 8 : next()) * 0x10000).toString(16)).join(':');
      for (const address of [v4, v6]) {
        const record = reader.get(address);
        const found = tree.find(address);
        expect(found > 0).toBe(record !== null);
        if (found > 0) {
          const data = JSON.stringify(record);
          expect(byRecord.get(found) ?? data).toBe(data);
          byRecord.set(found, data);
        }
      }
    }
    expect(byRecord.size).toBeGreaterThan(50);
  });

  it.each([
    ['127.0.0.1', NOT_FOUND],
    ['::1', NOT_FOUND],
    ['not an address', NOT_AN_ADDRESS],
    ['1.2.3.04', NOT_AN_ADDRESS],
  ])('answers %j with %d', (address, expected) => {
    expect(tree.find(address)).toBe(expected);
  });
});

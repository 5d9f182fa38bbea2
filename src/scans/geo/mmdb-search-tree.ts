/** What a walk of the search tree needs of an MMDB file's metadata (the `maxmind` reader parses it). */
export interface SearchTreeShape {
  nodeCount: number;
  recordSize: number;
  nodeByteSize: number;
  ipVersion: number;
}

/** No network of the database holds the address. */
export const NOT_FOUND = 0;
/** The text is not an IP address. */
export const NOT_AN_ADDRESS = -1;

/**
 * The search tree of an MMDB database (https://maxmind.github.io/MaxMind-DB/), walked without
 * allocating: the address is parsed into an integer (IPv4) or a reused 16-byte array (IPv6), and
 * each node's record read from the file's bytes. `find` answers the record that holds the address
 * (a number above nodeCount, the same for every address of one network and of networks sharing
 * their data), which the caller uses as the key of the decoded record: the `maxmind` reader decodes
 * a record once, and the walk, which the reader does for every lookup, costs a fifth of its
 * lookup here (its parse of the address makes arrays and strings). IPv4 addresses in an IPv6 tree
 * are looked up under ::/96, as the reader does.
 */
export class MmdbSearchTree {
  private readonly ipv4Start: number;
  private readonly v6 = new Uint8Array(16);

  constructor(
    private readonly db: Buffer,
    private readonly shape: SearchTreeShape,
  ) {
    if (![24, 28, 32].includes(shape.recordSize)) throw new Error(`unsupported MMDB record size ${shape.recordSize}`);
    let node = 0;
    if (shape.ipVersion === 6) for (let i = 0; i < 96 && node < shape.nodeCount; i++) node = this.left(node);
    this.ipv4Start = node;
  }

  /** The record holding `address` (> nodeCount), NOT_FOUND, or NOT_AN_ADDRESS. */
  find(address: string): number {
    const v4 = parseIpv4(address);
    if (v4 >= 0) return this.walkIpv4(v4);
    if (!parseIpv6(address, this.v6)) return NOT_AN_ADDRESS;
    if (this.shape.ipVersion === 4) return NOT_FOUND;
    return this.walkIpv6(this.v6);
  }

  private walkIpv4(address: number): number {
    const { nodeCount } = this.shape;
    let node = this.ipv4Start;
    for (let bit = 31; bit >= 0 && node < nodeCount; bit--) node = (address >>> bit) & 1 ? this.right(node) : this.left(node);
    return node > nodeCount ? node : NOT_FOUND;
  }

  private walkIpv6(bytes: Uint8Array): number {
    const { nodeCount } = this.shape;
    let node = 0;
    for (let bit = 0; bit < 128 && node < nodeCount; bit++) node = (bytes[bit >> 3] >>> (7 ^ (bit & 7))) & 1 ? this.right(node) : this.left(node);
    return node > nodeCount ? node : NOT_FOUND;
  }

  private left(node: number): number {
    const db = this.db;
    const at = node * this.shape.nodeByteSize;
    switch (this.shape.recordSize) {
      case 24:
        return (db[at] << 16) | (db[at + 1] << 8) | db[at + 2];
      case 28:
        return ((db[at + 3] & 0xf0) << 20) | (db[at] << 16) | (db[at + 1] << 8) | db[at + 2];
      default:
        return db.readUInt32BE(at);
    }
  }

  private right(node: number): number {
    const db = this.db;
    const at = node * this.shape.nodeByteSize;
    switch (this.shape.recordSize) {
      case 24:
        return (db[at + 3] << 16) | (db[at + 4] << 8) | db[at + 5];
      case 28:
        return ((db[at + 3] & 0x0f) << 24) | (db[at + 4] << 16) | (db[at + 5] << 8) | db[at + 6];
      default:
        return db.readUInt32BE(at + 4);
    }
  }
}

/** A dotted-quad IPv4 address as an unsigned 32-bit integer; -1 for anything else (leading zeros included, as node:net refuses them). */
export function parseIpv4(text: string, from = 0, to = text.length): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits > 0 && octet === 0) return -1;
      octet = octet * 10 + (c - 48);
      if (octet > 255 || ++digits > 3) return -1;
    } else if (c === 46 && digits > 0 && dots < 3) {
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else return -1;
  }
  return dots === 3 && digits > 0 ? value * 256 + octet : -1;
}

/** The 16-bit groups of the address being parsed (one buffer: lookups never overlap). */
const GROUPS = new Uint16Array(9);

/**
 * An IPv6 address (`::` compression, a trailing dotted quad, a `%zone` ignored) into `out`; false
 * when the text is not one. One pass over the characters (splitting into strings cost microseconds).
 */
export function parseIpv6(text: string, out: Uint8Array): boolean {
  const length = text.length;
  if (length < 2 || length > 64) return false;
  let groups = 0;
  let gapAt = -1;
  let value = 0;
  let digits = 0;
  let i = 0;
  if (text.charCodeAt(0) === 58 /* : */) {
    if (text.charCodeAt(1) !== 58) return false;
    gapAt = 0;
    i = 2;
  }
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    const digit = hexDigit(c);
    if (digit >= 0) {
      if (++digits > 4) return false;
      value = (value << 4) | digit;
    } else if (c === 58 /* : */) {
      if (digits === 0 || groups === 8) return false;
      GROUPS[groups++] = value;
      value = 0;
      digits = 0;
      if (text.charCodeAt(i + 1) === 58) {
        if (gapAt >= 0) return false;
        gapAt = groups;
        i++;
      } else if (i + 1 === length || text.charCodeAt(i + 1) === 37 /* % */) return false;
    } else if (c === 46 /* . */) {
      // A dotted quad ends the address: its first octet was read as hex digits, read it again.
      let stop = text.indexOf('%', i);
      if (stop < 0) stop = length;
      else if (!isZone(text, stop + 1, length)) return false;
      const v4 = parseIpv4(text, i - digits, stop);
      if (v4 < 0 || groups > 6) return false;
      GROUPS[groups++] = v4 >>> 16;
      GROUPS[groups++] = v4 & 0xffff;
      digits = 0;
      i = length;
      break;
    } else if (c === 37 /* % */ && i > 0 && isZone(text, i + 1, length)) {
      break;
    } else return false;
  }
  if (digits > 0) {
    if (groups === 8) return false;
    GROUPS[groups++] = value;
  } else if (i === length && text.charCodeAt(length - 1) === 58 && gapAt !== groups) return false;
  if (gapAt < 0 ? groups !== 8 : groups > 7) return false;
  out.fill(0);
  const head = gapAt < 0 ? groups : gapAt;
  for (let g = 0; g < head; g++) {
    out[2 * g] = GROUPS[g] >> 8;
    out[2 * g + 1] = GROUPS[g] & 0xff;
  }
  const tailStart = 8 - (groups - head);
  for (let g = head; g < groups; g++) {
    const at = 2 * (tailStart + g - head);
    out[at] = GROUPS[g] >> 8;
    out[at + 1] = GROUPS[g] & 0xff;
  }
  return true;
}

/** A zone id (`%eth0`) as node:net accepts it: letters, digits, `-`, `.` and `:`, at least one. */
function isZone(text: string, from: number, to: number): boolean {
  if (from >= to) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    const ok = (c >= 48 && c <= 58) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 46;
    if (!ok) return false;
  }
  return true;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

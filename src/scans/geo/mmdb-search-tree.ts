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

/** The groups after `::`, before they are moved to the end (one buffer: lookups never overlap). */
const TAIL = new Uint8Array(16);

/**
 * An IPv6 address (`::` compression, a trailing dotted quad, a `%zone` ignored) into `out`; false
 * when the text is not one.
 */
export function parseIpv6(text: string, out: Uint8Array): boolean {
  let end = text.indexOf('%');
  if (end < 0) end = text.length;
  if (end < 2 || end > 45) return false;
  const gap = text.indexOf('::');
  if (gap >= 0 && text.indexOf('::', gap + 1) >= 0) return false;
  out.fill(0);
  if (gap < 0) return groupsInto(text, 0, end, out, 0, 16) === 16;
  const head = gap === 0 ? 0 : groupsInto(text, 0, gap, out, 0, 14);
  if (head < 0) return false;
  if (gap + 2 === end) return true;
  const tail = TAIL;
  const tailBytes = groupsInto(text, gap + 2, end, tail, 0, 14 - head);
  if (tailBytes < 0) return false;
  out.set(tail.subarray(0, tailBytes), 16 - tailBytes);
  return true;
}

/** Colon-separated hex groups (the last may be a dotted quad) of text[from, to) into out from `at`; the bytes written, or -1. */
function groupsInto(text: string, from: number, to: number, out: Uint8Array, at: number, maxBytes: number): number {
  let written = 0;
  let start = from;
  while (start <= to) {
    let stop = text.indexOf(':', start);
    if (stop < 0 || stop > to) stop = to;
    if (stop === to && text.lastIndexOf('.', to - 1) >= start) {
      const v4 = parseIpv4(text, start, to);
      if (v4 < 0 || written + 4 > maxBytes) return -1;
      out[at + written] = v4 >>> 24;
      out[at + written + 1] = (v4 >>> 16) & 0xff;
      out[at + written + 2] = (v4 >>> 8) & 0xff;
      out[at + written + 3] = v4 & 0xff;
      return written + 4;
    }
    const length = stop - start;
    if (length < 1 || length > 4 || written + 2 > maxBytes) return -1;
    let group = 0;
    for (let i = start; i < stop; i++) {
      const digit = hexDigit(text.charCodeAt(i));
      if (digit < 0) return -1;
      group = (group << 4) | digit;
    }
    out[at + written] = group >> 8;
    out[at + written + 1] = group & 0xff;
    written += 2;
    if (stop === to) return written;
    start = stop + 1;
  }
  return -1;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

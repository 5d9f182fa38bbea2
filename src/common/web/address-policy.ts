import ipaddr from 'ipaddr.js';

/**
 * Cloud metadata services outside the internal ranges (Azure's wire server); 169.254.169.254 and
 * fd00:ec2::254 are link-local and unique-local anyway.
 */
const METADATA_ADDRESSES = new Set(['168.63.129.16']);

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  teredo: 'Teredo tunnel',
};

/**
 * Why a webhook may not be sent to this IP address, or null when it may: only globally routable
 * unicast addresses are allowed. IPv6 forms that carry an IPv4 address (mapped ::ffff:a.b.c.d,
 * translated, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that IPv4 address, so
 * ::ffff:127.0.0.1 is loopback like 127.0.0.1.
 */
export function addressRefusal(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  const judged = embeddedIpv4(parsed) ?? parsed;
  const shown = judged === parsed ? address : `${address} (${judged.toString()})`;
  if (METADATA_ADDRESSES.has(judged.toString())) return `${shown} is a cloud metadata address`;
  const range = judged.range();
  if (range === 'unicast') return null;
  if (judged.kind() === 'ipv4' && judged.toString() === '169.254.169.254') return `${shown} is the cloud metadata address`;
  return `${shown} is a ${RANGE_NAMES[range] ?? range} address`;
}

function embeddedIpv4(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.kind() !== 'ipv6') return null;
  const v6 = address as ipaddr.IPv6;
  const range = v6.range();
  const parts = v6.parts;
  const fromParts = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return fromParts(parts[6], parts[7]);
    case '6to4':
      return fromParts(parts[1], parts[2]);
    default:
      // ::a.b.c.d (IPv4-compatible, deprecated) still reaches a.b.c.d on some stacks.
      return parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7] > 1) ? fromParts(parts[6], parts[7]) : null;
  }
}

import { addressRefusal } from './address-policy';

describe('addressRefusal', () => {
  it.each([['93.184.216.34'], ['8.8.8.8'], ['2606:4700:4700::1111'], ['2a00:1450:4001:82a::200e']])('allows the public address %s', (address) => {
    expect(addressRefusal(address)).toBeNull();
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.10.0.5', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['169.254.10.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['168.63.129.16', 'cloud metadata'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['64:ff9b::a9fe:a9fe', 'cloud metadata'],
    ['64:ff9b::c0a8:101', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a00:1::1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(addressRefusal(address)).toContain(reason);
  });

  it('judges a mapped address by the IPv4 address it carries', () => {
    expect(addressRefusal('::ffff:8.8.8.8')).toBeNull();
    expect(addressRefusal('::ffff:127.0.0.1')).toBe('::ffff:127.0.0.1 (127.0.0.1) is a loopback address');
  });
});

#!/usr/bin/perl
# Writes the small MMDB files the geo tests read (Debian: libmaxmind-db-writer-perl).
#   write-test-mmdb.pl <out.mmdb> city      a GeoLite2-City-shaped database (country and city)
#   write-test-mmdb.pl <out.mmdb> city-v2   the same, one network moved (Berlin becomes Vienna): the reload test
#   write-test-mmdb.pl <out.mmdb> country   shaped as the bundled @ip-location-db database ({country_code})
# An optional third argument sets the record size (24, 28 as GeoLite2 files have, or 32; 24 by default).
# Documentation ranges only (RFC 5737, RFC 3849): no real address is placed anywhere.
use strict;
use warnings;
use MaxMind::DB::Writer::Tree;

my ($out, $kind, $record_size) = @ARGV;
$record_size //= 24;
die "usage: $0 <out.mmdb> city|city-v2|country [24|28|32]\n" unless $out && $kind && $kind =~ /^(city|city-v2|country)$/ && $record_size =~ /^(24|28|32)$/;

my %types = (
  country => 'map', iso_code => 'utf8_string', city => 'map', names => 'map', en => 'utf8_string',
  de => 'utf8_string', country_code => 'utf8_string',
);
my $tree = MaxMind::DB::Writer::Tree->new(
  ip_version => 6,
  record_size => $record_size,
  database_type => $kind eq 'country' ? 'geo-whois-asn-country' : 'GeoLite2-City',
  languages => ['en'],
  description => { en => 'qr-service geo test database' },
  remove_reserved_networks => 0,
  map_key_type_callback => sub { $types{ $_[0] } // die "no type for $_[0]\n" },
);

my $place = sub {
  my ($country, $city) = @_;
  my %record = (country => { iso_code => $country });
  $record{city} = { names => { en => $city->[0], de => $city->[1] } } if $city;
  return \%record;
};

if ($kind eq 'country') {
  $tree->insert_network('192.0.2.0/24', { country_code => 'NL' });
  $tree->insert_network('2001:db8:3::/48', { country_code => 'CA' });
} else {
  my $v2 = $kind eq 'city-v2';
  $tree->insert_network('203.0.113.0/24', $v2 ? $place->('AT', ['Vienna', 'Wien']) : $place->('DE', ['Berlin', 'Berlin']));
  $tree->insert_network('198.51.100.0/25', $place->('FR', ['Paris', 'Paris']));
  $tree->insert_network('198.51.100.128/25', $place->('US', ['Paris', 'Paris']));
  $tree->insert_network('2001:db8:1::/48', $place->('JP', ['Tokyo', 'Tokio']));
  $tree->insert_network('2001:db8:2::/48', $place->('BR'));
}

open my $fh, '>:raw', $out or die "cannot write $out: $!\n";
$tree->write_tree($fh);
close $fh or die "cannot write $out: $!\n";

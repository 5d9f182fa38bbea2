/**
 * Links that open a place in a maps app. Each is a plain link the person chooses to follow: the
 * pages embed no map and load nothing from a maps service.
 */

/** Opens the Google Maps app where installed (Android, iOS) and its website elsewhere. */
export function mapSearchUrl(query: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

/** Opens Apple Maps on iPhone, iPad and Mac, and its website elsewhere. */
export function appleMapsUrl(latitude: string, longitude: string): string {
  return `https://maps.apple.com/?ll=${latitude},${longitude}&q=${latitude},${longitude}`;
}

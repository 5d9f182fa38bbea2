import { encodeGeo, type GeoContent } from '../../qrcodes/content/geo.encoder';
import { escapeHtml } from './html';
import { icon } from './icons';
import { appleMapsUrl, mapSearchUrl } from './map-links';
import { landingDocument } from './page-document';
import { actions, copyField } from './page-parts';

/**
 * A place: its coordinates, "Open in Maps" (the `geo:` link, which Android and map apps open),
 * Apple Maps and Google Maps links (which open the app on an iPhone, where `geo:` does nothing),
 * and the coordinates to copy. No map is embedded: nothing is loaded from a maps service.
 */
export function geoPage(content: GeoContent): string {
  const geoUri = encodeGeo(content);
  const [latitude, longitude] = geoUri.slice('geo:'.length).split(',');
  const coordinates = `${latitude}, ${longitude}`;
  return landingDocument({
    title: coordinates,
    kind: 'Location',
    badgeHtml: icon('pin'),
    heading: coordinates,
    subHtml: escapeHtml(`${hemisphere(latitude, 'N', 'S')}, ${hemisphere(longitude, 'E', 'W')}`),
    bodyHtml:
      actions(
        { href: geoUri, label: 'Open in Maps', icon: 'pin' },
        { href: appleMapsUrl(latitude, longitude), label: 'Apple Maps', icon: 'external' },
        { href: mapSearchUrl(`${latitude},${longitude}`), label: 'Google Maps', icon: 'external' },
      ) + copyField({ id: 'coordinates', label: 'Coordinates', value: coordinates }),
  });
}

/** "52.520008" → "52.520008° N"; "-33.8" → "33.8° S". */
function hemisphere(degrees: string, positive: string, negative: string): string {
  return degrees.startsWith('-') ? `${degrees.slice(1)}° ${negative}` : `${degrees}° ${positive}`;
}

import { hrefs, parsePage, text } from './__fixtures__/hostile-page';
import { geoPage } from './geo-page';

describe('geoPage', () => {
  it.each([
    ['north-east', 52.520008, 13.404954, '52.520008, 13.404954', '52.520008° N, 13.404954° E'],
    ['south-west', -33.8688, -151.2093, '-33.8688, -151.2093', '33.8688° S, 151.2093° W'],
    ['zero and float noise', 0, 1e-9, '0, 0', '0° N, 0° E'],
  ])('%s: coordinates, hemispheres, geo: and two map links, the coordinates to copy', (_case, latitude, longitude, heading, sub) => {
    const page = parsePage(geoPage({ latitude, longitude }));
    const [lat, lng] = heading.split(', ');
    expect([text(page, '.kind'), text(page, 'h1'), text(page, '.sub')]).toEqual(['Location', heading, sub]);
    expect(
      page('.button')
        .toArray()
        .map((button) => [page(button).text(), page(button).attr('href')]),
    ).toEqual([
      ['Open in Maps', `geo:${lat},${lng}`],
      ['Apple Maps', `https://maps.apple.com/?ll=${lat},${lng}&q=${lat},${lng}`],
      ['Google Maps', `https://www.google.com/maps/search/?api=1&query=${lat}%2C${lng}`],
    ]);
    expect(page('input#coordinates').val()).toBe(heading);
    expect(hrefs(page)).toHaveLength(3);
  });
});

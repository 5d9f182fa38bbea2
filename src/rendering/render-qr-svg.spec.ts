import { XMLParser } from 'fast-xml-parser';
import { rasteriseSvg } from '../../test/support/decode-svg';
import type { QrStyle } from './style/qr-style';
import { checkeredLogo } from './__fixtures__/png-data-uri';
import { buildQrMatrix } from './qr-matrix';
import { renderQrSvg } from './render-qr-svg';

interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}

/** Parses with fast-xml-parser (which fails on malformed XML) into a plain element tree. */
function parseSvg(svg: string): XmlNode {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: true, parseAttributeValue: false });
  const toNodes = (entries: Array<Record<string, unknown>>): XmlNode[] =>
    entries.map((entry) => {
      const name = Object.keys(entry).find((key) => key !== ':@')!;
      return {
        name,
        attributes: (entry[':@'] as Record<string, string>) ?? {},
        children: toNodes(entry[name] as Array<Record<string, unknown>>),
      };
    });
  const roots = toNodes(parser.parse(svg, true));
  expect(roots).toHaveLength(1);
  return roots[0];
}

function allNodes(node: XmlNode): XmlNode[] {
  return [node, ...node.children.flatMap(allNodes)];
}

function countElements(svg: string, name: string): number {
  return allNodes(parseSvg(svg)).filter((node) => node.name === name).length;
}

const ALLOWED_ELEMENTS = new Set(['svg', 'defs', 'linearGradient', 'radialGradient', 'stop', 'clipPath', 'rect', 'path', 'circle', 'image', 'g']);
const ALLOWED_ATTRIBUTES = new Set([
  'xmlns',
  'width',
  'height',
  'viewBox',
  'shape-rendering',
  'id',
  'gradientUnits',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'offset',
  'stop-color',
  'stop-opacity',
  'fill',
  'fill-opacity',
  'd',
  'transform',
  'x',
  'y',
  'rx',
  'href',
]);
const SAFE_HREF = /^data:image\/(png|jpeg|webp)[;,]/;

const TEXT = 'https://example.com/products/42?ref=qr';
const LOGO = checkeredLogo();
const gradient = (type: 'linear' | 'radial', rotation = 30) => ({
  type,
  rotation,
  colorStops: [
    { offset: 0, color: '#1a237e' },
    { offset: 1, color: '#b71c1c' },
  ],
});

/** Every feature at once: gradients on every layer, own corner paints, logo, circle shape. */
const EVERYTHING: QrStyle = {
  dotsOptions: { type: 'classy-rounded', gradient: gradient('linear') },
  cornersSquareOptions: { type: 'extra-rounded', gradient: gradient('radial') },
  cornersDotOptions: { type: 'dot', gradient: gradient('linear', 200) },
  backgroundOptions: {
    gradient: {
      colorStops: [
        { offset: 0, color: '#ffffff' },
        { offset: 1, color: '#e3f2fd' },
      ],
    },
    round: 0.2,
  },
  image: LOGO,
  imageOptions: { imageSize: 0.3, margin: 2, hideBackgroundDots: true },
  shape: 'circle',
};

describe('renderQrSvg document', () => {
  it('is an SVG document of the requested size with a viewBox', () => {
    for (const size of [100, 333, 2000]) {
      const root = parseSvg(renderQrSvg({ text: TEXT, style: {}, size }));
      expect(root.name).toBe('svg');
      expect(root.attributes).toMatchObject({
        xmlns: 'http://www.w3.org/2000/svg',
        width: String(size),
        height: String(size),
        viewBox: `0 0 ${size} ${size}`,
      });
    }
  });

  it('is deterministic', () => {
    expect(renderQrSvg({ text: TEXT, style: EVERYTHING, size: 300 })).toBe(renderQrSvg({ text: TEXT, style: EVERYTHING, size: 300 }));
  });

  it('draws the plain style as one background rect and one path, never an element per module', () => {
    const svg = renderQrSvg({ text: 'https://example.com/' + 'x'.repeat(150), style: {}, size: 300 });
    expect(countElements(svg, 'rect')).toBe(1);
    expect(countElements(svg, 'path')).toBe(1);
    expect(allNodes(parseSvg(svg))).toHaveLength(3);
  });

  it.each(['square', 'dots', 'rounded', 'classy', 'classy-rounded', 'extra-rounded'] as const)(
    'draws %s dots with a gradient as one path with one gradient',
    (type) => {
      const svg = renderQrSvg({ text: TEXT, style: { dotsOptions: { type, gradient: gradient('linear') } }, size: 300 });
      expect(countElements(svg, 'path')).toBe(1);
      expect(countElements(svg, 'linearGradient')).toBe(1);
      expect(countElements(svg, 'circle')).toBe(0);
    },
  );

  it('gives corner squares and corner dots with their own colour one path each', () => {
    const svg = renderQrSvg({
      text: TEXT,
      style: { cornersSquareOptions: { color: '#aa0000' }, cornersDotOptions: { color: '#0000aa' } },
      size: 300,
    });
    const fills = allNodes(parseSvg(svg))
      .filter((node) => node.name === 'path')
      .map((node) => node.attributes.fill);
    expect(fills).toEqual(['#000', '#aa0000', '#0000aa']);
  });

  it('lets the corner dots take the corner squares’ colour unless they set their own', () => {
    const svg = renderQrSvg({ text: TEXT, style: { cornersSquareOptions: { color: '#aa0000', type: 'dot' } }, size: 300 });
    const paths = allNodes(parseSvg(svg)).filter((node) => node.name === 'path');
    expect(paths.map((node) => node.attributes.fill)).toEqual(['#000', '#aa0000']);
    // Three rings (two circles each) and three centre squares in the corner layer.
    expect(paths[1].attributes.d.match(/[Mm]/g)).toHaveLength(9);
  });

  it('gives each corner its own gradient, as qr-code-styling does, and nothing more', () => {
    const svg = renderQrSvg({ text: TEXT, style: EVERYTHING, size: 300 });
    expect(countElements(svg, 'path')).toBe(1 + 3 + 3);
    expect(countElements(svg, 'linearGradient') + countElements(svg, 'radialGradient')).toBe(1 + 1 + 3 + 3);
    expect(countElements(svg, 'rect')).toBe(1);
    expect(countElements(svg, 'image')).toBe(1);
  });

  it('contains only allowed elements and attributes, no event handler and no external reference', () => {
    const styles: QrStyle[] = [{}, EVERYTHING, { ...EVERYTHING, shape: 'square', dotsOptions: { type: 'dots', roundSize: false } }];
    for (const style of styles) {
      for (const node of allNodes(parseSvg(renderQrSvg({ text: TEXT, style, size: 300 })))) {
        expect(ALLOWED_ELEMENTS).toContain(node.name);
        for (const [name, value] of Object.entries(node.attributes)) {
          expect(ALLOWED_ATTRIBUTES).toContain(name);
          expect(name.toLowerCase().startsWith('on')).toBe(false);
          if (name === 'href') expect(value).toMatch(SAFE_HREF);
          if (name === 'fill' && value.startsWith('url(')) expect(value).toMatch(/^url\(#[A-Za-z0-9_-]+\)$/);
        }
      }
    }
  });

  it('escapes every attribute value, even values that should never reach it', () => {
    const hostileImage = 'data:image/png;base64,AAAA"/><script>alert(1)</script><image href="https://evil.example/x.png';
    const hostileColour = '#000" onload="alert(1)';
    const svg = renderQrSvg({ text: TEXT, style: { image: hostileImage, dotsOptions: { color: hostileColour } }, size: 300 });
    const nodes = allNodes(parseSvg(svg));
    expect(nodes.map((node) => node.name)).not.toContain('script');
    expect(nodes.filter((node) => node.name === 'image')).toHaveLength(1);
    expect(nodes.find((node) => node.name === 'image')!.attributes.href).toBe(hostileImage);
    expect(nodes.find((node) => node.name === 'path')!.attributes).toEqual({
      transform: expect.any(String),
      fill: hostileColour,
      d: expect.any(String),
    });
  });

  it('keeps ids unique between documents with different id prefixes, and every reference resolves', () => {
    const documents = ['first', 'second'].map((idPrefix) => parseSvg(renderQrSvg({ text: TEXT, style: EVERYTHING, size: 300, idPrefix })));
    const idsOf = (root: XmlNode) =>
      allNodes(root)
        .map((node) => node.attributes.id)
        .filter((id): id is string => id !== undefined);
    const [firstIds, secondIds] = documents.map(idsOf);
    expect(firstIds.length).toBe(8);
    expect(new Set(firstIds).size).toBe(firstIds.length);
    expect(firstIds.every((id) => id.startsWith('first-'))).toBe(true);
    expect(secondIds.filter((id) => firstIds.includes(id))).toEqual([]);
    for (const [root, ids] of [
      [documents[0], firstIds],
      [documents[1], secondIds],
    ] as const) {
      const references = allNodes(root).flatMap((node) =>
        [
          ...Object.values(node.attributes)
            .join(' ')
            .matchAll(/url\(#([^)]+)\)/g),
        ].map((match) => match[1]),
      );
      expect(references.length).toBeGreaterThan(0);
      for (const reference of references) expect(ids).toContain(reference);
    }
  });

  it('derives different ids for different codes when no prefix is given', () => {
    const ids = (text: string) => [...renderQrSvg({ text, style: EVERYTHING, size: 300 }).matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    const first = ids('first code');
    const second = ids('second code');
    expect(first.length).toBeGreaterThan(0);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
  });

  it('refuses an id prefix that could break out of a url() reference', () => {
    expect(() => renderQrSvg({ text: TEXT, style: {}, size: 300, idPrefix: 'a)b' })).toThrow(RangeError);
    expect(() => renderQrSvg({ text: TEXT, style: {}, size: 300, idPrefix: '1abc' })).toThrow(RangeError);
  });

  it('leaves out the background for "transparent" and rounds it with backgroundOptions.round', () => {
    expect(countElements(renderQrSvg({ text: TEXT, style: { backgroundOptions: { color: 'transparent' } }, size: 300 }), 'rect')).toBe(0);
    const rounded = parseSvg(renderQrSvg({ text: TEXT, style: { backgroundOptions: { color: '#ffeeee', round: 0.5 } }, size: 300 }));
    expect(allNodes(rounded).find((node) => node.name === 'rect')!.attributes).toMatchObject({ rx: '75', fill: '#ffeeee' });
  });

  it('writes #rrggbbaa colours as a colour and an opacity', () => {
    const root = parseSvg(
      renderQrSvg({
        text: TEXT,
        style: { dotsOptions: { color: '#11223380' }, cornersSquareOptions: { gradient: { colorStops: [{ offset: 0.5, color: '#445566cc' }] } } },
        size: 300,
      }),
    );
    const nodes = allNodes(root);
    expect(nodes.find((node) => node.name === 'path')!.attributes).toMatchObject({ fill: '#112233', 'fill-opacity': '0.502' });
    expect(nodes.find((node) => node.name === 'stop')!.attributes).toEqual({ offset: '50%', 'stop-color': '#445566', 'stop-opacity': '0.8' });
  });

  it('keeps a four-module quiet zone by default and honours an explicit margin', () => {
    const darkBounds = (svg: string) => {
      const { pixels, width, height } = rasteriseSvg(svg);
      let left = width;
      let right = -1;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          if (pixels[(y * width + x) * 4] < 128) {
            left = Math.min(left, x);
            right = Math.max(right, x);
          }
        }
      }
      return { left, right, width };
    };
    const count = buildQrMatrix(TEXT, 'M').size;
    for (const size of [100, 300, 1000]) {
      const { left, right, width } = darkBounds(renderQrSvg({ text: TEXT, style: {}, size }));
      const moduleSize = (right - left + 1) / count;
      expect(left).toBeGreaterThanOrEqual(4 * moduleSize);
      expect(width - 1 - right).toBeGreaterThanOrEqual(4 * moduleSize);
    }
    expect(darkBounds(renderQrSvg({ text: TEXT, style: { margin: 40 }, size: 300 })).left).toBeGreaterThanOrEqual(40);
  });

  it('draws decorative modules outside the code for the circle shape', () => {
    const square = renderQrSvg({ text: TEXT, style: { margin: 0 }, size: 300 });
    const circle = renderQrSvg({ text: TEXT, style: { margin: 0, shape: 'circle' }, size: 300 });
    const coverage = (svg: string) => {
      const { pixels } = rasteriseSvg(svg);
      let dark = 0;
      for (let index = 0; index < pixels.length; index += 4) if (pixels[index] < 128) dark++;
      return dark;
    };
    // The circle's code is smaller (side / √2) but the decoration around it adds dark area.
    expect(coverage(circle)).toBeGreaterThan(coverage(square) * 0.6);
    const { pixels, width } = rasteriseSvg(circle);
    const darkAt = (x: number, y: number) => pixels[(y * width + x) * 4] < 128;
    // Corners of the canvas lie outside the circle: nothing is drawn there.
    expect([darkAt(2, 2), darkAt(297, 2), darkAt(2, 297), darkAt(297, 297)]).toEqual([false, false, false, false]);
  });

  it('embeds the logo as an image sized by imageSize and its header dimensions', () => {
    const image = (style: QrStyle) =>
      allNodes(parseSvg(renderQrSvg({ text: TEXT, style, size: 300 }))).find((node) => node.name === 'image')!.attributes;
    const square = image({ image: LOGO });
    expect(Number(square.width)).toBe(Number(square.height));
    const wide = image({ image: checkeredLogo(32, 8) });
    expect(Number(wide.width)).toBeGreaterThan(2 * Number(wide.height));
    const smaller = image({ image: LOGO, imageOptions: { imageSize: 0.2 } });
    expect(Number(smaller.width)).toBeLessThan(Number(square.width));
    const withMargin = image({ image: LOGO, imageOptions: { margin: 4 } });
    expect(Number(withMargin.width)).toBe(Number(square.width) - 8);
  });

  it('hides the modules under the logo only with hideBackgroundDots', () => {
    const pathLength = (hideBackgroundDots: boolean) =>
      allNodes(parseSvg(renderQrSvg({ text: TEXT, style: { image: LOGO, imageOptions: { hideBackgroundDots } }, size: 300 }))).find(
        (node) => node.name === 'path',
      )!.attributes.d.length;
    expect(pathLength(true)).toBeLessThan(pathLength(false));
  });

  it('marks unaligned modules crispEdges as qr-code-styling does when roundSize is off', () => {
    expect(parseSvg(renderQrSvg({ text: TEXT, style: { dotsOptions: { roundSize: false } }, size: 301 })).attributes['shape-rendering']).toBe(
      'crispEdges',
    );
    expect(parseSvg(renderQrSvg({ text: TEXT, style: {}, size: 301 })).attributes['shape-rendering']).toBeUndefined();
  });
});

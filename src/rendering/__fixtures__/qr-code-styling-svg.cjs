// Test fixture: renders SVGs with qr-code-styling v1.9 in plain Node (jsdom 29 needs require(esm),
// which jest's module loader lacks). Reads a JSON array of
//   { text, style, size, level, matrix: { size, modules: base64 of size*size bytes } }
// on stdin (gradient rotations already in radians) and prints a JSON array of SVG strings.
// qr-code-styling's drawing is fed the given module matrix through its internal `_qr` /
// `_setupSvg`, the seam between encoding and drawing in v1.9, so that both renderers draw the
// same symbol. jsdom cannot load images: its Image reports the sizes given in `imageSizes`.
'use strict';
const { JSDOM } = require('jsdom');
const QRCodeStyling = require('qr-code-styling');

function jsdomWithImageSize(width, height) {
  return class extends JSDOM {
    constructor(html, options) {
      super(html, options);
      this.window.Image = class {
        constructor() {
          this.width = 0;
          this.height = 0;
          this.onload = null;
        }
        set src(value) {
          this.source = value;
          this.width = width;
          this.height = height;
          setTimeout(() => this.onload && this.onload(), 0);
        }
        get src() {
          return this.source;
        }
      };
    }
  };
}

async function render({ text, style, size, level, matrix, imageSize }) {
  const modules = Buffer.from(matrix.modules, 'base64');
  const styling = new QRCodeStyling({
    ...style,
    jsdom: jsdomWithImageSize(imageSize ? imageSize.width : 1, imageSize ? imageSize.height : 1),
    type: 'svg',
    width: size,
    height: size,
    data: text,
    qrOptions: { errorCorrectionLevel: level },
    imageOptions: { ...(style.imageOptions || {}), saveAsBlob: false },
  });
  styling._qr = {
    getModuleCount: () => matrix.size,
    isDark: (row, col) => modules[row * matrix.size + col] === 1,
  };
  styling._setupSvg();
  return String(await styling.getRawData('svg'));
}

let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', async () => {
  const svgs = [];
  for (const job of JSON.parse(input)) svgs.push(await render(job));
  process.stdout.write(JSON.stringify(svgs));
});

"""QR reader over Debian's python3-zxing-cpp (zxing-cpp 1.4, ZXing's classic finder detector).

One long-lived process per decode worker (test/support/qr-decoders.ts starts it): it reads images
from stdin and answers each on stdout, until stdin closes.

Request: width and height (uint32 little-endian), then width * height * 4 RGBA bytes.
Answer: the payload length (uint32 little-endian) and the payload bytes of the first valid QR code,
or 0xFFFFFFFF when none was read.
"""

import struct
import sys

import numpy
import zxingcpp

NOT_READ = 0xFFFFFFFF


def read_exactly(stream, count):
    chunks = []
    while count > 0:
        chunk = stream.read(count)
        if not chunk:
            return None
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


def main():
    source = sys.stdin.buffer
    sink = sys.stdout.buffer
    while True:
        header = read_exactly(source, 8)
        if header is None:
            return
        width, height = struct.unpack("<II", header)
        pixels = read_exactly(source, width * height * 4)
        if pixels is None:
            return
        rgba = numpy.frombuffer(pixels, dtype=numpy.uint8).reshape(height, width, 4)
        # The binding takes 3-channel arrays as BGR and converts them to luminance itself.
        bgr = numpy.ascontiguousarray(rgba[:, :, 2::-1])
        # The binding's defaults otherwise (rotations, downscaling, local-average binarizer), as an app uses it.
        result = zxingcpp.read_barcode(bgr, formats=zxingcpp.BarcodeFormat.QRCode)
        if result is not None and result.valid:
            sink.write(struct.pack("<I", len(result.bytes)) + result.bytes)
        else:
            sink.write(struct.pack("<I", NOT_READ))
        sink.flush()


if __name__ == "__main__":
    main()

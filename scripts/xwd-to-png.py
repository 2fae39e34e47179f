#!/usr/bin/python3
"""Converts an X window dump (xwd, 24/32-bit TrueColor ZPixmap) to a PNG.

Usage: scripts/xwd-to-png.py DUMP.xwd IMAGE.png

For the guides' screenshots of real dialogs (scripts/dialog-screenshots.sh):
Xvfb's windows are dumped with xwd, and this keeps ImageMagick off the
machine for one conversion (the standard library's zlib writes the PNG).
"""
import struct, sys, zlib

def main(source, target):
    data = open(source, "rb").read()
    fields = struct.unpack(">25I", data[:100])
    header_size, _, fmt, depth, width, height = fields[:6]
    byte_order, bpp, stride = fields[7], fields[11], fields[12]
    masks = fields[14:17]
    ncolors = fields[19]
    if fmt != 2 or bpp not in (24, 32):
        sys.exit(f"xwd2png: only 24/32-bit ZPixmap dumps (format {fmt}, {bpp} bpp)")
    pixels = data[header_size + 12 * ncolors:]
    step = bpp // 8
    shifts = [(m & -m).bit_length() - 1 for m in masks]
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        line = pixels[y * stride:y * stride + width * step]
        for x in range(width):
            chunk = line[x * step:(x + 1) * step]
            value = int.from_bytes(chunk, "little" if byte_order == 0 else "big")
            rows += bytes((value & m) >> s for m, s in zip(masks, shifts))
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")
    open(target, "wb").write(png)

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

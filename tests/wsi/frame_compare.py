"""Pictures for the vkcube test (run_vkcube.py), with the standard library only: a PNG reader (crashtest's
captured frames), an XWD reader (the framebuffer file Xvfb keeps with -fbdir, which is how lavapipe's frames are
seen: Debian's lavapipe has no frame capture), and the statistics the test compares.

Frames are compared on a grid (every STEP-th pixel of every STEP-th row), which keeps pure Python fast enough."""
import struct
import zlib

STEP = 4
# A pixel differs from the background when a channel differs by more than this (0-255).
BACKGROUND_THRESHOLD = 12


class Grid:
    """RGB samples on a grid: width x height samples, pixels[y][x] = (r, g, b)."""

    def __init__(self, width, height, pixels):
        self.width = width
        self.height = height
        self.pixels = pixels


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path):
    """An 8-bit RGB or RGBA PNG (not interlaced) -> (width, height, rows of RGB bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s is not a PNG file" % path)
    pos, idat, header = 8, [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None:
        raise ValueError("%s has no IHDR chunk" % path)
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise ValueError("%s: only 8-bit RGB/RGBA, non-interlaced PNGs are read (depth %d, colour type %d)"
                         % (path, depth, colour))
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                upper_left = previous[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + _paeth(left, previous[i], upper_left)) & 0xFF
        elif kind != 0:
            raise ValueError("%s: unknown PNG filter %d in row %d" % (path, kind, y))
        rows.append(bytes(line) if bpp == 3 else bytes(b for i, b in enumerate(line) if i % 4 != 3))
        previous = line
    return width, height, rows


def png_grid(path):
    width, height, rows = read_png(path)
    pixels = []
    for y in range(0, height, STEP):
        row = rows[y]
        pixels.append([tuple(row[x * 3:x * 3 + 3]) for x in range(0, width, STEP)])
    return Grid(len(pixels[0]), len(pixels), pixels)


def xwd_grid_from_bytes(data, width, height, left, top, step=STEP):
    """The width x height pixels at (left, top) of an XWD image of a 24-bit TrueColor screen stored in 32-bit
    pixels (Xvfb -fbdir), sampled every `step` pixels."""
    (header_size, _version, _format, depth, screen_width, screen_height, _xoffset, byte_order, _unit, _unit_order,
     _pad, bits_per_pixel, bytes_per_line, _visual_class, red_mask, green_mask, blue_mask, _bits_per_rgb,
     _colormap_entries, ncolors) = struct.unpack(">20I", data[:80])
    if bits_per_pixel != 32 or depth != 24:
        raise ValueError("expected a 24-bit screen stored in 32-bit pixels (depth %d, %d bits per pixel)"
                         % (depth, bits_per_pixel))
    width, height = min(width, screen_width - left), min(height, screen_height - top)
    start = header_size + ncolors * 12 + left * 4
    order = "<" if byte_order == 0 else ">"
    shifts = [(mask & -mask).bit_length() - 1 for mask in (red_mask, green_mask, blue_mask)]
    pixels = []
    for y in range(top, top + height, step):
        line = data[start + y * bytes_per_line:start + y * bytes_per_line + width * 4]
        values = struct.unpack(order + "%dI" % width, line)[::step]
        pixels.append([tuple((v >> s) & 0xFF for s in shifts) for v in values])
    return Grid(len(pixels[0]), len(pixels), pixels)


def statistics(grid):
    """Coverage (fraction of samples that are not background), bounding box of those samples (in pixels),
    mean colour over them, and the background colour (the top-left sample: vkcube's clear colour)."""
    background = grid.pixels[0][0]
    covered, sums = 0, [0, 0, 0]
    x0, y0, x1, y1 = grid.width, grid.height, -1, -1
    for y, row in enumerate(grid.pixels):
        for x, p in enumerate(row):
            if max(abs(p[0] - background[0]), abs(p[1] - background[1]), abs(p[2] - background[2])) \
                    <= BACKGROUND_THRESHOLD:
                continue
            covered += 1
            for c in range(3):
                sums[c] += p[c]
            x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
    result = {"background": background, "coverage": covered / (grid.width * grid.height)}
    if covered:
        result["box"] = (x0 * STEP, y0 * STEP, x1 * STEP, y1 * STEP)
        result["mean"] = tuple(s / covered for s in sums)
    return result


def difference(a, b):
    """Mean absolute difference per channel (0-255) over the samples both grids have."""
    total, count = 0, 0
    for row_a, row_b in zip(a.pixels, b.pixels):
        for p, q in zip(row_a, row_b):
            total += abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2])
            count += 3
    return total / count if count else 255.0

#!/usr/bin/env python3
"""Generates the crashtest format table (format/format_table.h) from the <formats> section of vk.xml.

Only formats the installed C headers declare without extra macros are emitted: a format introduced solely by a
platform extension (VK_USE_PLATFORM_*), a provisional extension (VK_ENABLE_BETA_EXTENSIONS) or a disabled extension
would not compile. The header is included by format/format_info.cpp only; everything else goes through
format/format_info.h.

Usage: gen_format_table.py --xml vk.xml --output format_table.h
"""

import argparse
import sys
import xml.etree.ElementTree as ET

NUMERIC_FORMATS = {
    "UNORM": "kUnorm", "SNORM": "kSnorm", "USCALED": "kUscaled", "SSCALED": "kSscaled", "UINT": "kUint",
    "SINT": "kSint", "UFLOAT": "kUfloat", "SFLOAT": "kSfloat", "SRGB": "kSrgb", "SFIXED5": "kSfixed5",
}
COMPONENT_NAMES = {"R": "kR", "G": "kG", "B": "kB", "A": "kA", "D": "kDepth", "S": "kStencil"}
COMPRESSION = {
    None: "kNone", "BC": "kBc", "ETC2": "kEtc2", "EAC": "kEac", "ASTC LDR": "kAstcLdr", "ASTC HDR": "kAstcHdr",
    "PVRTC": "kPvrtc",
}
CHROMA = {None: "kNone", "444": "k444", "422": "k422", "420": "k420"}
MAX_COMPONENTS = 4
MAX_PLANES = 3


class GenError(Exception):
    pass


def api_includes_vulkan(element):
    """True when an element's api/supported attribute (if any) names the Vulkan API (not only Vulkan SC)."""
    for attr in ("api", "supported"):
        value = element.get(attr)
        if value is not None and "vulkan" not in value.split(","):
            return False
    return True


def declared_format_names(root):
    """Names of VkFormat enumerants the C headers declare without extra macros."""
    names = set()
    for enums in root.findall("enums"):
        if enums.get("name") == "VkFormat":
            names.update(e.get("name") for e in enums.findall("enum") if e.get("alias") is None)
    blocks = [f for f in root.findall("feature") if api_includes_vulkan(f)]
    for ext in root.iter("extension"):
        # Platform extensions sit behind VK_USE_PLATFORM_*, provisional ones behind VK_ENABLE_BETA_EXTENSIONS,
        # disabled ones are not in the headers at all.
        if ext.get("platform") or ext.get("provisional") == "true" or not api_includes_vulkan(ext):
            continue
        blocks.append(ext)
    for block in blocks:
        for require in block.findall("require"):
            if not api_includes_vulkan(require):
                continue
            for enum in require.findall("enum"):
                if enum.get("extends") == "VkFormat" and enum.get("alias") is None:
                    names.add(enum.get("name"))
    return names


def positive_int(fmt, attr, text):
    try:
        value = int(text)
    except (TypeError, ValueError):
        raise GenError(f"{fmt}: attribute {attr}={text!r} is not an integer") from None
    if value < 0:
        raise GenError(f"{fmt}: attribute {attr}={text!r} is negative")
    return value


def parse_format(elem, declared):
    name = elem.get("name")
    if not name:
        raise GenError("a <format> element has no name attribute")
    for attr in ("class", "blockSize", "texelsPerBlock"):
        if elem.get(attr) is None:
            raise GenError(f"{name}: missing attribute {attr}")
    extent = (elem.get("blockExtent") or "1,1,1").split(",")
    if len(extent) != 3:
        raise GenError(f"{name}: blockExtent {elem.get('blockExtent')!r} is not 'w,h,d'")
    compressed = elem.get("compressed")
    if compressed not in COMPRESSION:
        raise GenError(f"{name}: unknown compression scheme {compressed!r}")
    chroma = elem.get("chroma")
    if chroma not in CHROMA:
        raise GenError(f"{name}: unknown chroma subsampling {chroma!r}")

    components = []
    for comp in elem.findall("component"):
        cname, bits, numeric = comp.get("name"), comp.get("bits"), comp.get("numericFormat")
        if cname not in COMPONENT_NAMES:
            raise GenError(f"{name}: unknown component name {cname!r}")
        if numeric not in NUMERIC_FORMATS:
            raise GenError(f"{name}: unknown numericFormat {numeric!r}")
        bit_count = 0 if bits == "compressed" else positive_int(name, "bits", bits)
        plane = positive_int(name, "planeIndex", comp.get("planeIndex", "0"))
        components.append((COMPONENT_NAMES[cname], bit_count, NUMERIC_FORMATS[numeric], plane))
    if not components or len(components) > MAX_COMPONENTS:
        raise GenError(f"{name}: {len(components)} components (expected 1..{MAX_COMPONENTS})")

    planes = []
    for plane in elem.findall("plane"):
        index = positive_int(name, "index", plane.get("index"))
        if index != len(planes):
            raise GenError(f"{name}: plane index {index} out of order")
        compatible = plane.get("compatible")
        if compatible not in declared:
            raise GenError(f"{name}: plane {index} compatible format {compatible!r} is not declared")
        planes.append((positive_int(name, "widthDivisor", plane.get("widthDivisor")),
                       positive_int(name, "heightDivisor", plane.get("heightDivisor")), compatible))
    if len(planes) > MAX_PLANES:
        raise GenError(f"{name}: {len(planes)} planes (at most {MAX_PLANES})")

    return {
        "name": name,
        "class": elem.get("class"),
        "blockSize": positive_int(name, "blockSize", elem.get("blockSize")),
        "extent": [positive_int(name, "blockExtent", v) for v in extent],
        "texelsPerBlock": positive_int(name, "texelsPerBlock", elem.get("texelsPerBlock")),
        "packed": positive_int(name, "packed", elem.get("packed", "0")),
        "components": components,
        "compressed": COMPRESSION[compressed],
        "chroma": CHROMA[chroma],
        "planes": planes,
    }


def aspect_mask(fmt):
    names = {c[0] for c in fmt["components"]}
    aspects = []
    if "kDepth" in names:
        aspects.append("VK_IMAGE_ASPECT_DEPTH_BIT")
    if "kStencil" in names:
        aspects.append("VK_IMAGE_ASPECT_STENCIL_BIT")
    if not aspects:
        aspects.append("VK_IMAGE_ASPECT_COLOR_BIT")
        aspects += [f"VK_IMAGE_ASPECT_PLANE_{i}_BIT" for i in range(len(fmt["planes"]))]
    return " | ".join(aspects)


def emit(formats, skipped, xml_path):
    out = []
    w = out.append
    w("// Generated by src/format/gen_format_table.py from " + xml_path + ". Do not edit.")
    w("// Included by format/format_info.cpp only.")
    if skipped:
        w("// Skipped (declared only behind platform/provisional macros or not at all): " + ", ".join(skipped))
    w("#pragma once")
    w("")
    w('#include "format/format_info.h"')
    w("")
    w("namespace crashtest::generated {")
    w("")
    w(f"inline constexpr FormatInfo kFormatTable[{len(formats)}] = {{")
    for f in formats:
        comps = ", ".join(f"{{ComponentName::{c}, {b}, NumericFormat::{n}, {p}}}" for c, b, n, p in f["components"])
        planes = ", ".join(f"{{{wd}, {hd}, {compat}}}" for wd, hd, compat in f["planes"])
        e = f["extent"]
        w("    {")
        w(f"        {f['name']}, \"{f['name']}\", \"{f['class']}\",")
        w(f"        {f['blockSize']}, {{{e[0]}, {e[1]}, {e[2]}}}, {f['texelsPerBlock']}, {f['packed']},")
        w(f"        {len(f['components'])}, {{{comps}}},")
        w(f"        CompressionScheme::{f['compressed']}, ChromaSubsampling::{f['chroma']},")
        w(f"        {len(f['planes'])}, {{{planes}}},")
        w(f"        {aspect_mask(f)},")
        w("    },")
    w("};")
    w("")
    w("// Index into kFormatTable, or -1. A switch lets the compiler pick the lookup (the core formats are")
    w("// contiguous, the extension formats are sparse).")
    w("constexpr int FormatTableIndex(VkFormat format) {")
    w("  switch (format) {")
    for i, f in enumerate(formats):
        w(f"    case {f['name']}: return {i};")
    w("    default: return -1;")
    w("  }")
    w("}")
    w("")
    w("}  // namespace crashtest::generated")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--xml", required=True, help="path of vk.xml")
    parser.add_argument("--output", required=True, help="header to write")
    args = parser.parse_args()
    try:
        try:
            root = ET.parse(args.xml).getroot()
        except (OSError, ET.ParseError) as e:
            raise GenError(f"cannot read the Vulkan registry: {e}") from None
        section = root.find("formats")
        if section is None:
            raise GenError("the registry has no <formats> section (vk.xml older than 1.2.139?)")
        declared = declared_format_names(root)
        formats, skipped, seen = [], [], set()
        for elem in section.findall("format"):
            fmt = parse_format(elem, declared)
            if fmt["name"] in seen:
                raise GenError(f"{fmt['name']}: listed twice")
            seen.add(fmt["name"])
            if fmt["name"] in declared:
                formats.append(fmt)
            else:
                skipped.append(fmt["name"])
        if not formats:
            raise GenError("no formats found")
        text = emit(formats, skipped, args.xml)
    except GenError as e:
        print(f"gen_format_table.py: {args.xml}: {e}", file=sys.stderr)
        return 1
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

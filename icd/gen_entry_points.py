#!/usr/bin/env python3
"""Generates crashtest's entry-point table from the installed vk.xml and the list of implemented commands.

Outputs (into the output directory):
  entry_points.h   declarations of every implemented command's implementation, crashtest::icd::<Name without vk>
  entry_points.cpp the lookup table: every implemented command and its aliases, sorted by name, with the dispatch
                   level, the core version that provides it and the extensions that provide it (for gating)
  api_coverage.h   the highest Vulkan versions whose every command is implemented (what the driver may advertise)
  struct_types.h   StructType<T> (common/pnext.h) for every struct with an sType the C headers declare

A listed command that has no implementation is a link error; a listed name vk.xml does not know fails here.
Standard library only.
"""

import argparse
import sys
import xml.etree.ElementTree as ET

VERSIONS = ["VK_VERSION_1_0", "VK_VERSION_1_1", "VK_VERSION_1_2", "VK_VERSION_1_3"]
# Window-system platforms whose commands crashtest implements (src/wsi). Their types are declared for the
# generated header by wsi/x11_types.h without the X11 headers; their structs stay out of struct_types.h.
PLATFORMS = {"xcb": "vulkan/vulkan_xcb.h", "xlib": "vulkan/vulkan_xlib.h"}
VERSION_NUMBERS = {"VK_VERSION_1_0": (1, 0), "VK_VERSION_1_1": (1, 1), "VK_VERSION_1_2": (1, 2),
                   "VK_VERSION_1_3": (1, 3)}


def for_vulkan(element):
    api = element.get("api")
    return api is None or "vulkan" in api.split(",")


def fail(message):
    sys.stderr.write("gen_entry_points.py: error: " + message + "\n")
    sys.exit(1)


class Command:
    def __init__(self, name, return_type, params, level):
        self.name = name
        self.return_type = return_type
        self.params = params  # list of C declarations
        self.level = level
        self.version = None  # "VK_VERSION_1_x" that makes it core, if any
        # What provides it: (name it is provided as, extension, condition), the condition being None or, for a
        # command an extension provides only beside another one, (another extension or None, core version or None):
        # that extension enabled too, or the device at that version.
        self.extensions = []


def dispatch_level(first_param_type, name):
    if first_param_type == "VkInstance" and name != "vkCreateInstance":
        return "Instance"
    if first_param_type == "VkPhysicalDevice":
        return "PhysicalDevice"
    if first_param_type in ("VkDevice", "VkQueue", "VkCommandBuffer"):
        return "Device"
    return "Global"


def require_providers(extension, require, promoted_to):
    """Which extension provides the commands of `extension`'s <require> block, and on what condition.

    A block that depends on something else provides its commands only with it: registries up to 1.3.2xx say
    <require extension="B"> inside extension A (e.g. vkCmdWriteBufferMarker2AMD under VK_KHR_synchronization2 with
    extension="VK_AMD_buffer_marker"), later ones <require depends="A,VK_VERSION_1_3"> inside B. Both mean B
    provides the command when A is enabled too, or when the device's version includes A (A's "promotedto").
    Returns [(provider, condition)], condition None or (extension or None, version or None)."""
    also = require.get("extension")
    if also is not None:
        return [(also, (extension, promoted_to.get(extension)))]
    depends = require.get("depends")
    if depends is None:
        return [(extension, None)]
    if any(c in depends for c in "+()"):
        return [(extension, ("unsupported:" + depends, None))]
    result = []
    for alternative in depends.split(","):
        if alternative in VERSION_NUMBERS:
            result.append((extension, (None, alternative)))
        else:
            result.append((extension, (alternative, promoted_to.get(alternative))))
    return result


def parse_registry(path):
    root = ET.parse(path).getroot()
    commands = {}
    aliases = {}  # alias name -> target name
    for node in root.find("commands"):
        if node.tag != "command" or not for_vulkan(node):
            continue
        if node.get("alias"):
            aliases[node.get("name")] = node.get("alias")
            continue
        proto = node.find("proto")
        name = proto.find("name").text
        return_type = proto.find("type").text
        params = []
        first_type = None
        for param in node.findall("param"):
            if not for_vulkan(param):
                continue
            text = " ".join("".join(param.itertext()).split())
            params.append(text)
            if first_type is None:
                first_type = param.find("type").text
        commands[name] = Command(name, return_type, params, dispatch_level(first_type, name))

    extension_types = {}
    excluded_extensions = set()
    platform_extensions = set()
    for feature in root.findall("feature"):
        if not for_vulkan(feature) or feature.get("name") not in VERSIONS:
            continue
        for require in feature.findall("require"):
            for cmd in require.findall("command"):
                target = commands.get(cmd.get("name"))
                if target is not None and target.version is None:
                    target.version = feature.get("name")
    promoted_to = {ext.get("name"): ext.get("promotedto") for ext in root.find("extensions")}
    for ext in root.find("extensions"):
        name = ext.get("name")
        supported = ext.get("supported", "").split(",")
        platform = ext.get("platform")
        if platform in PLATFORMS:
            platform_extensions.add(name)
        elif "vulkan" not in supported or platform or ext.get("provisional") == "true":
            excluded_extensions.add(name)
            continue
        if "vulkan" not in supported:
            excluded_extensions.add(name)
            continue
        extension_types[name] = ext.get("type")
        for require in ext.findall("require"):
            if not for_vulkan(require):
                continue
            for provider, condition in require_providers(name, require, promoted_to):
                for cmd in require.findall("command"):
                    cname = cmd.get("name")
                    target = commands.get(aliases.get(cname, cname))
                    if target is None:
                        continue
                    # The alias name (e.g. vkGetPhysicalDeviceProperties2KHR) is what the extension provides.
                    target.extensions.append((cname, provider, condition))

    structs = []
    for node in root.find("types"):
        if node.tag != "type" or node.get("category") != "struct" or node.get("alias") or not for_vulkan(node):
            continue
        for member in node.findall("member"):
            if not for_vulkan(member):
                continue
            if member.find("name").text == "sType" and member.get("values"):
                structs.append((node.get("name"), member.get("values").split(",")[0]))
            break
    # Struct types and enumerants from excluded (platform / provisional) extensions are not in vulkan_core.h.
    excluded_types = set()
    excluded_enums = set()
    for ext in root.find("extensions"):
        if ext.get("name") in excluded_extensions or ext.get("name") in platform_extensions:
            for require in ext.findall("require"):
                for t in require.findall("type"):
                    excluded_types.add(t.get("name"))
                for e in require.findall("enum"):
                    excluded_enums.add(e.get("name"))
    structs = [(n, v) for (n, v) in structs if n not in excluded_types and v not in excluded_enums]
    return commands, aliases, extension_types, structs


def read_implemented(path, commands, aliases):
    implemented = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line in aliases:
                fail(f"{path}:{number}: {line} is an alias of {aliases[line]}; list the core name")
            if line not in commands:
                fail(f"{path}:{number}: {line} is not a command of {args.vk_xml}")
            implemented.append(line)
    return implemented


def impl_name(command_name):
    return command_name[2:]  # drop "vk"


def write_header(out, implemented, commands):
    lines = ["// Generated by icd/gen_entry_points.py from vk.xml and icd/commands/*.txt. Do not edit.",
             "#pragma once", "", "#include <vulkan/vulkan.h>", "", "#include <cstdint>", "",
             '#include "wsi/x11_types.h"'] + [f"#include <{h}>" for h in sorted(PLATFORMS.values())] + ["",
             "namespace crashtest::icd {", ""]
    for name in implemented:
        c = commands[name]
        lines.append(f"VKAPI_ATTR {c.return_type} VKAPI_CALL {impl_name(name)}({', '.join(c.params)});")
    lines += ["",
              "enum class DispatchLevel : uint8_t { Global, Instance, PhysicalDevice, Device };",
              "",
              "struct EntryPoint {",
              "  const char* name;",
              "  PFN_vkVoidFunction function;",
              "  DispatchLevel level;",
              "  uint32_t coreVersion;         // VK_API_VERSION_1_x that makes this name core; 0 if none",
              "  uint16_t firstExtension;      // range into kEntryPointExtensions of extensions providing this name",
              "  uint16_t extensionCount;",
              "};",
              "",
              "struct ExtensionRef {",
              "  const char* name;",
              "  bool instanceExtension;  // false: a device extension",
              "  // Provided only beside another extension (vk.xml's require extension= / depends=): that device",
              "  // extension enabled too (nullptr: none needed), or the device at alsoCoreVersion (0: no version does).",
              "  const char* alsoExtension;",
              "  uint32_t alsoCoreVersion;",
              "};",
              "",
              "extern const EntryPoint kEntryPoints[];       // sorted by name (strcmp)",
              "extern const uint32_t kEntryPointCount;",
              "extern const ExtensionRef kEntryPointExtensions[];",
              "",
              "}  // namespace crashtest::icd", ""]
    out.write("\n".join(lines))


def write_table(out, implemented, commands, extension_types):
    entries = []  # (name, impl, level, version, [extensions])
    for name in implemented:
        c = commands[name]
        by_name = {}
        for provided_name, ext, condition in c.extensions:
            if condition is not None and condition[0] is not None and condition[0].startswith("unsupported:"):
                fail(f"{name}: vk.xml's depends=\"{condition[0][12:]}\" is not understood (only A or A,B,VK_VERSION_x_y)")
            by_name.setdefault(provided_name, []).append((ext, condition))
        version = "0"
        if c.version:
            major, minor = VERSION_NUMBERS[c.version]
            version = f"VK_MAKE_API_VERSION(0, {major}, {minor}, 0)"
        entries.append((name, impl_name(name), c.level, version, by_name.get(name, [])))
        for alias_name, exts in by_name.items():
            if alias_name != name:
                entries.append((alias_name, impl_name(name), c.level, "0", exts))
    entries.sort(key=lambda e: e[0].encode())
    ext_refs = []
    lines = ["// Generated by icd/gen_entry_points.py from vk.xml and icd/commands/*.txt. Do not edit.",
             '#include "entry_points.h"', "", "namespace crashtest::icd {", "",
             "const EntryPoint kEntryPoints[] = {"]
    for name, impl, level, version, exts in entries:
        first = len(ext_refs)
        for ext, condition in exts:
            ext_refs.append((ext, extension_types.get(ext) == "instance", condition))
        lines.append(f'    {{"{name}", reinterpret_cast<PFN_vkVoidFunction>(&{impl}), DispatchLevel::{level}, '
                     f"{version}, {first}, {len(exts)}}},")
    lines += ["};", f"const uint32_t kEntryPointCount = {len(entries)};", "",
              "const ExtensionRef kEntryPointExtensions[] = {"]
    for ext, instance, condition in ext_refs:
        also, version = condition if condition is not None else (None, None)
        also_text = f'"{also}"' if also else "nullptr"
        version_text = "0"
        if version in VERSION_NUMBERS:
            major, minor = VERSION_NUMBERS[version]
            version_text = f"VK_MAKE_API_VERSION(0, {major}, {minor}, 0)"
        lines.append(f'    {{"{ext}", {"true" if instance else "false"}, {also_text}, {version_text}}},')
    if not ext_refs:
        lines.append('    {"", false, nullptr, 0},')
    lines += ["};", "", "}  // namespace crashtest::icd", ""]
    out.write("\n".join(lines))


def write_coverage(out, implemented, commands):
    done = set(implemented)
    lines = ["// Generated by icd/gen_entry_points.py from vk.xml and icd/commands/*.txt. Do not edit.",
             "// The highest Vulkan version whose every command crashtest implements: what a device (and the",
             "// instance) may advertise without handing the app a NULL entry point.", "#pragma once", "",
             "#include <vulkan/vulkan.h>", "", "namespace crashtest {", ""]
    results = {}
    missing_next = {}
    for scope, levels in (("Device", ("Device",)), ("Instance", ("Global", "Instance", "PhysicalDevice"))):
        complete = "VK_API_VERSION_1_0"
        for version in VERSIONS:
            missing = sorted(c.name for c in commands.values()
                             if c.version == version and c.level in levels and c.name not in done)
            if missing:
                missing_next[scope] = (version, missing)
                break
            major, minor = VERSION_NUMBERS[version]
            complete = f"VK_MAKE_API_VERSION(0, {major}, {minor}, 0)"
        results[scope] = complete
    lines.append(f"inline constexpr uint32_t kCompleteDeviceApiVersion = {results['Device']};")
    lines.append(f"inline constexpr uint32_t kCompleteInstanceApiVersion = {results['Instance']};")
    for scope, (version, missing) in sorted(missing_next.items()):
        lines.append(f"// {scope}-level commands of {version} not implemented yet ({len(missing)}):")
        lines.append(f"inline constexpr const char* kMissing{scope}Commands[] = {{")
        for name in missing:
            lines.append(f'    "{name}",')
        lines.append("};")
        lines.append(f'inline constexpr const char* kMissing{scope}CommandsVersion = "{version}";')
    for scope in ("Device", "Instance"):
        if scope not in missing_next:
            lines.append(f"inline constexpr const char* kMissing{scope}Commands[] = {{nullptr}};")
            lines.append(f'inline constexpr const char* kMissing{scope}CommandsVersion = "";')
    lines += ["", "}  // namespace crashtest", ""]
    out.write("\n".join(lines))


def write_struct_types(out, structs):
    lines = ["// Generated by icd/gen_entry_points.py from vk.xml. Do not edit.",
             "// StructType<T>::value for every Vulkan struct that has an sType (see common/pnext.h).",
             "#pragma once", "", '#include "common/pnext.h"', "", "namespace crashtest {", ""]
    for name, value in sorted(structs):
        lines.append(f"CT_STRUCT_TYPE({name}, {value});")
    lines += ["", "}  // namespace crashtest", ""]
    out.write("\n".join(lines))


def write_if_changed(path, writer, *writer_args):
    import io
    buffer = io.StringIO()
    writer(buffer, *writer_args)
    text = buffer.getvalue()
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vk-xml", required=True, help="path of vk.xml")
    parser.add_argument("--implemented", required=True, nargs="+", help="the lists of implemented commands")
    parser.add_argument("--header", help="write entry_points.h here")
    parser.add_argument("--table", help="write entry_points.cpp here")
    parser.add_argument("--coverage", help="write api_coverage.h here")
    parser.add_argument("--struct-types", help="write struct_types.h here")
    args = parser.parse_args()
    commands, aliases, extension_types, structs = parse_registry(args.vk_xml)
    implemented = []
    for path in args.implemented:
        for name in read_implemented(path, commands, aliases):
            if name in implemented:
                fail(f"{path}: {name} is listed twice")
            implemented.append(name)
    if args.header:
        write_if_changed(args.header, write_header, implemented, commands)
    if args.table:
        write_if_changed(args.table, write_table, implemented, commands, extension_types)
    if args.coverage:
        write_if_changed(args.coverage, write_coverage, implemented, commands)
    if args.struct_types:
        write_if_changed(args.struct_types, write_struct_types, structs)

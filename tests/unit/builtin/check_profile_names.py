#!/usr/bin/env python3
"""Checks that every name in Vulkan Profiles JSON files exists in the installed vk.xml.

Usage: check_profile_names.py [--expect-problems N] VK_XML PROFILE.json [PROFILE.json ...]

A profile is only useful if the loader can map every struct, member, enum and flag-bit name it uses onto the
Vulkan headers the driver is built against. This walks each file with the types vk.xml gives: a member declared
as a struct is checked as that struct, an enum member must name a value of its enum, a flags member must list bits
of its FlagBits type, and so on. Structs and extensions must be usable on every platform: none from an extension
with a `platform` attribute, a provisional one, or a disabled one. Our own "crashtest" key is checked against its
documented shape (docs/devices.md). Exit code 0 when every file is clean; otherwise 1, one line per problem.
With --expect-problems N (for the test of the checker itself), exit code 0 exactly when N problems are found.
"""

import json
import re
import sys
import xml.etree.ElementTree as ET

VERSION_STRING = re.compile(r"^\d+\.\d+\.\d+$")
SCALAR_TYPES_INT = {"uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t", "int16_t", "int32_t", "int64_t",
                    "size_t", "VkDeviceSize", "VkSampleMask"}
SCALAR_TYPES_FLOAT = {"float", "double"}
TOP_LEVEL_KEYS = {"$schema", "capabilities", "profiles", "crashtest"}
CAPABILITY_KEYS = {"extensions", "features", "properties", "formats", "queueFamiliesProperties"}
MACHINE_KEYS = {"registerBudget", "registerFilePerLane", "allocationGranule", "maxSubgroupsPerCore",
                "sharedMemoryPerCore", "coreCount", "minSubgroupSize", "maxSubgroupSize", "simdsPerCore",
                "scalarRegisterBudget", "scalarAllocationGranule", "privateArrayRegisterLimit", "loopUnrollIterations",
                "loopUnrollIterationsForLoads", "loadSchedulingRegisters", "vertexStageInputRegisters", "geometryVerticesHeld",
                "expansionTemporaries",
                "statisticDialect",
                "latency"}
DIALECTS = {"crashtest", "radv", "nvidia", "anv"}
LATENCY_KEYS = {"alu", "transcendental", "memory", "shared", "texture", "branch", "barrier", "atomic"}


class Member:
    def __init__(self, name, type_name, is_array):
        self.name = name
        self.type_name = type_name
        self.is_array = is_array


class Registry:
    """The parts of vk.xml a profile can refer to."""

    def __init__(self, path):
        root = ET.parse(path).getroot()
        self.structs = {}        # name -> list of Member
        self.struct_extends = {}  # name -> set of struct names it may extend
        self.aliases = {}        # alias type name -> target type name
        self.bitmasks = {}       # Flags type name -> FlagBits type name (None: no bits defined)
        self.enum_types = set()  # enum type names
        self.enum_values = {}    # enum type name -> set of value names
        self.extensions = {}     # extension name -> its XML element
        self.type_to_extensions = {}  # type name -> extension names that require it
        self.extension_spec_versions = {}  # extension name -> spec version
        self._read_types(root)
        self._read_enums(root)
        self._read_extensions(root)
        self.core_types = set()  # types required by a core Vulkan version
        for feature in root.findall("feature"):
            if "vulkan" in (feature.get("api") or "vulkan").split(","):
                for req in feature.findall("require"):
                    self.core_types.update(t.get("name") for t in req.findall("type"))

    def _read_types(self, root):
        for t in root.iter("type"):
            category = t.get("category")
            name = t.get("name") or (t.findtext("name") or "")
            if t.get("alias"):
                self.aliases[name] = t.get("alias")
                continue
            if category == "struct":
                members = []
                for m in t.findall("member"):
                    if m.get("api") == "vulkansc":
                        continue
                    text = "".join(m.itertext())
                    members.append(Member(m.findtext("name"), m.findtext("type"), "[" in text))
                self.structs[name] = members
                self.struct_extends[name] = set(filter(None, (t.get("structextends") or "").split(",")))
            elif category == "bitmask":
                self.bitmasks[name] = t.get("requires") or t.get("bitvalues")
            elif category == "enum":
                self.enum_types.add(name)

    def _add_enum_value(self, group, name):
        self.enum_values.setdefault(group, set()).add(name)

    def _read_enums(self, root):
        for enums in root.findall("enums"):
            group = enums.get("name")
            for e in enums.findall("enum"):
                self._add_enum_value(group, e.get("name"))
        # Values added by core versions and extensions.
        for e in root.iter("enum"):
            if e.get("extends"):
                self._add_enum_value(e.get("extends"), e.get("name"))

    def _read_extensions(self, root):
        for ext in root.iter("extension"):
            name = ext.get("name")
            self.extensions[name] = ext
            for req in ext.findall("require"):
                for t in req.findall("type"):
                    self.type_to_extensions.setdefault(t.get("name"), set()).add(name)
                for e in req.findall("enum"):
                    if e.get("name", "").endswith("_SPEC_VERSION") and e.get("value", "").isdigit():
                        self.extension_spec_versions[name] = int(e.get("value"))

    def resolve(self, type_name):
        seen = set()
        while type_name in self.aliases and type_name not in seen:
            seen.add(type_name)
            type_name = self.aliases[type_name]
        return type_name

    def extension_problem(self, name):
        """Why an extension may not be used, or None."""
        ext = self.extensions.get(name)
        if ext is None:
            return "is not an extension in vk.xml"
        if ext.get("supported") in ("disabled", None) or "vulkan" not in ext.get("supported").split(","):
            return "is not supported for Vulkan (supported=%r)" % ext.get("supported")
        if ext.get("platform"):
            return "is a platform extension (platform=%r)" % ext.get("platform")
        if ext.get("provisional") == "true":
            return "is provisional"
        return None

    def struct_problem(self, name):
        """Why a struct may not be used, or None: it must be core or come from at least one usable extension."""
        if name in self.core_types:
            return None
        extensions = sorted(self.type_to_extensions.get(name, ()))
        if not extensions:
            return None  # a base type such as VkPhysicalDeviceLimits, required through a core struct
        for ext_name in extensions:
            if self.extension_problem(ext_name) is None:
                return None
        return "comes from extension %s, which %s" % (extensions[0], self.extension_problem(extensions[0]))


class Checker:
    def __init__(self, registry, file_name):
        self.registry = registry
        self.file_name = file_name
        self.problems = []

    def problem(self, path, message):
        self.problems.append("%s: %s: %s" % (self.file_name, path, message))

    # --- Vulkan structs -------------------------------------------------------------------------------------

    def check_struct(self, path, struct_name, value, extends=None):
        registry = self.registry
        resolved = registry.resolve(struct_name)
        if resolved not in registry.structs:
            self.problem(path, "%s is not a struct in vk.xml" % struct_name)
            return
        problem = registry.struct_problem(struct_name) or registry.struct_problem(resolved)
        if problem:
            self.problem(path, "%s %s" % (struct_name, problem))
            return
        if extends and resolved not in extends and not (registry.struct_extends[resolved] & extends):
            self.problem(path, "%s does not extend %s" % (struct_name, " or ".join(sorted(extends))))
            return
        if not isinstance(value, dict):
            self.problem(path, "expected an object for %s" % struct_name)
            return
        members = {m.name: m for m in registry.structs[resolved]}
        for key, member_value in value.items():
            member = members.get(key)
            if member is None or key in ("sType", "pNext"):
                self.problem(path + "." + key, "%s has no member %s" % (struct_name, key))
                continue
            self.check_member(path + "." + key, member, member_value)

    def check_member(self, path, member, value):
        registry = self.registry
        type_name = registry.resolve(member.type_name)
        if member.is_array and type_name == "char":
            if not isinstance(value, str):
                self.problem(path, "expected a string")
            return
        if member.is_array:
            if not isinstance(value, list):
                self.problem(path, "expected an array")
                return
            element = Member(member.name, member.type_name, False)
            for i, item in enumerate(value):
                self.check_member("%s[%d]" % (path, i), element, item)
            return
        if type_name in registry.structs:
            self.check_struct(path, type_name, value)
        elif type_name in registry.bitmasks:
            self.check_flags(path, type_name, value)
        elif type_name in registry.enum_types:
            self.check_enum(path, type_name, value)
        elif type_name == "VkBool32":
            if not isinstance(value, bool):
                self.problem(path, "expected true or false")
        elif type_name in SCALAR_TYPES_INT:
            version_member = member.name == "apiVersion"  # the loader parses "1.3.239" there only
            if isinstance(value, str) and version_member and VERSION_STRING.match(value):
                return
            if isinstance(value, bool) or not isinstance(value, int) or value < 0 and type_name.startswith("u"):
                self.problem(path, "expected an integer of type %s" % type_name)
        elif type_name in SCALAR_TYPES_FLOAT:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                self.problem(path, "expected a number")
        else:
            self.problem(path, "member of type %s cannot be given in a profile" % type_name)

    def check_enum(self, path, enum_type, value):
        if not isinstance(value, str):
            # The loader accepts numbers for values the registry does not name (e.g. our own driverID).
            if isinstance(value, bool) or not isinstance(value, int):
                self.problem(path, "expected a %s name or a number" % enum_type)
            return
        if value not in self.registry.enum_values.get(enum_type, set()):
            self.problem(path, "%s is not a value of %s" % (value, enum_type))

    def check_flags(self, path, flags_type, value):
        bits_type = self.registry.resolve(self.registry.bitmasks.get(flags_type) or "")
        if not isinstance(value, list):
            self.problem(path, "expected an array of %s names" % (bits_type or flags_type))
            return
        valid = self.registry.enum_values.get(bits_type, set())
        for i, bit in enumerate(value):
            if not isinstance(bit, str) or bit not in valid:
                self.problem("%s[%d]" % (path, i), "%r is not a bit of %s" % (bit, bits_type or flags_type))

    # --- Profile sections -----------------------------------------------------------------------------------

    def check_profile(self, document):
        if not isinstance(document, dict):
            self.problem("$", "expected an object")
            return
        for key in document:
            if key not in TOP_LEVEL_KEYS:
                self.problem("$." + key, "unknown top-level key")
        for block_name, block in document.get("capabilities", {}).items():
            self.check_capabilities("$.capabilities." + block_name, block)
        if "crashtest" in document:
            self.check_crashtest("$.crashtest", document["crashtest"])

    def check_capabilities(self, path, block):
        for key in block:
            if key not in CAPABILITY_KEYS:
                self.problem(path + "." + key, "unknown capability section")
        for name, version in block.get("extensions", {}).items():
            problem = self.registry.extension_problem(name)
            if problem:
                self.problem(path + ".extensions." + name, "%s %s" % (name, problem))
            if isinstance(version, bool) or not isinstance(version, int):
                self.problem(path + ".extensions." + name, "expected the spec version as an integer")
        for name, value in block.get("features", {}).items():
            self.check_struct(path + ".features." + name, name, value,
                              {"VkPhysicalDeviceFeatures", "VkPhysicalDeviceFeatures2"})
        for name, value in block.get("properties", {}).items():
            self.check_struct(path + ".properties." + name, name, value,
                              {"VkPhysicalDeviceProperties", "VkPhysicalDeviceProperties2"})
        for format_name, structs in block.get("formats", {}).items():
            format_path = path + ".formats." + format_name
            if format_name not in self.registry.enum_values.get("VkFormat", set()):
                self.problem(format_path, "%s is not a VkFormat" % format_name)
            for name, value in structs.items():
                self.check_struct(format_path + "." + name, name, value,
                                  {"VkFormatProperties", "VkFormatProperties2"})
        for i, family in enumerate(block.get("queueFamiliesProperties", [])):
            for name, value in family.items():
                self.check_struct("%s.queueFamiliesProperties[%d].%s" % (path, i, name), name, value,
                                  {"VkQueueFamilyProperties", "VkQueueFamilyProperties2"})

    def check_crashtest(self, path, ours):
        memory = ours.get("memory", {})
        for i, heap in enumerate(memory.get("heaps", [])):
            self.check_flags("%s.memory.heaps[%d].flags" % (path, i), "VkMemoryHeapFlags", heap.get("flags", []))
        for i, memory_type in enumerate(memory.get("types", [])):
            self.check_flags("%s.memory.types[%d].propertyFlags" % (path, i), "VkMemoryPropertyFlags",
                             memory_type.get("propertyFlags", []))
        machine = ours.get("machine", {})
        for key in machine:
            if key not in MACHINE_KEYS:
                self.problem("%s.machine.%s" % (path, key), "unknown machine-model key")
        if "statisticDialect" in machine and machine["statisticDialect"] not in DIALECTS:
            self.problem("%s.machine.statisticDialect" % path, "unknown statistic dialect")
        for key in machine.get("latency", {}):
            if key not in LATENCY_KEYS:
                self.problem("%s.machine.latency.%s" % (path, key), "unknown latency class")


def main(argv):
    expected = None
    if len(argv) > 2 and argv[1] == "--expect-problems":
        expected = int(argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) < 3:
        print("usage: check_profile_names.py [--expect-problems N] VK_XML PROFILE.json...", file=sys.stderr)
        return 2
    registry = Registry(argv[1])
    problems = []
    for file_name in argv[2:]:
        try:
            with open(file_name, encoding="utf-8") as f:
                document = json.load(f)
        except (OSError, ValueError) as error:
            problems.append("%s: cannot read: %s" % (file_name, error))
            continue
        checker = Checker(registry, file_name)
        checker.check_profile(document)
        problems += checker.problems
    for line in problems:
        print(line, file=sys.stderr)
    print("%d file(s) checked, %d problem(s)" % (len(argv) - 2, len(problems)))
    if expected is not None:
        if len(problems) != expected:
            print("expected %d problem(s), found %d" % (expected, len(problems)), file=sys.stderr)
            return 1
        return 0
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

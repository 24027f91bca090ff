#!/usr/bin/env python3
"""Generates the struct and enum tables the profile loader reads Vulkan Profiles JSON with.

Usage: gen_struct_table.py VK_XML OUTPUT_CPP

Covers every struct that extends VkPhysicalDeviceFeatures2 or VkPhysicalDeviceProperties2 (plus the base
feature/property structs, the format and queue-family structs, and every struct nested in them) that the
installed C headers declare without extra macros: extensions with a `platform` attribute, provisional ones and
disabled ones are skipped. Layouts come from `offsetof`/`sizeof` in the generated C++, so the compiler, not this
script, decides them.
"""

import re
import sys
import xml.etree.ElementTree as ET

# Structs the loader reads besides the Features2/Properties2 extensions (their nested structs follow).
BASE_STRUCTS = {
    'VkPhysicalDeviceFeatures': 'Features',
    'VkPhysicalDeviceProperties': 'Properties',
    'VkPhysicalDeviceLimits': 'Nested',
    'VkPhysicalDeviceSparseProperties': 'Nested',
    'VkFormatProperties': 'FormatProperties',
    'VkFormatProperties2': 'FormatProperties',
    'VkFormatProperties3': 'FormatProperties',
    'VkQueueFamilyProperties': 'QueueFamilyProperties',
    'VkQueueFamilyProperties2': 'QueueFamilyProperties',
}
# Structs chained to these are recognised (so a profile naming them is not "unknown") but not emulated.
EXTENDED_ROLES = {
    'VkPhysicalDeviceFeatures2': 'Features',
    'VkPhysicalDeviceProperties2': 'Properties',
    'VkFormatProperties2': 'FormatProperties',
    'VkQueueFamilyProperties2': 'QueueFamilyProperties',
}
# Enum and bitmask-bits types the loader and the driver look names up in, beyond those the members use.
EXTRA_ENUMS = [
    'VkFormat', 'VkFormatFeatureFlagBits', 'VkFormatFeatureFlagBits2', 'VkQueueFlagBits',
    'VkMemoryPropertyFlagBits', 'VkMemoryHeapFlagBits', 'VkPhysicalDeviceType', 'VkDriverId',
    'VkShaderStageFlagBits', 'VkSubgroupFeatureFlagBits', 'VkSampleCountFlagBits', 'VkResult',
    'VkStructureType',
]
# Vulkan 1.1's subgroup members were renamed when they moved into VkPhysicalDeviceVulkan11Properties.
AGGREGATE_RENAMES = {
    ('VkPhysicalDeviceSubgroupProperties', 'supportedStages'): 'subgroupSupportedStages',
    ('VkPhysicalDeviceSubgroupProperties', 'supportedOperations'): 'subgroupSupportedOperations',
    ('VkPhysicalDeviceSubgroupProperties', 'quadOperationsInAllStages'): 'subgroupQuadOperationsInAllStages',
}
SCALAR_KINDS = {
    'VkBool32': 'Bool32', 'uint8_t': 'UInt8', 'uint16_t': 'UInt16', 'uint32_t': 'UInt32', 'int32_t': 'Int32',
    'uint64_t': 'UInt64', 'VkDeviceSize': 'UInt64', 'VkDeviceAddress': 'UInt64', 'int64_t': 'Int64',
    'float': 'Float', 'size_t': 'Size', 'char': 'String',
}


def fail(message):
    sys.stderr.write('gen_struct_table.py: %s\n' % message)
    sys.exit(1)


def is_vulkan_api(element):
    api = element.get('api')
    return api is None or 'vulkan' in api.split(',')


def extension_enabled(ext):
    supported = ext.get('supported', '')
    return ('vulkan' in supported.split(',') and ext.get('platform') is None
            and ext.get('provisional') != 'true')


def version_number(feature_number):
    major, minor = feature_number.split('.')
    return (int(major) << 22) | (int(minor) << 12)


class Registry:
    def __init__(self, root):
        self.types = {}        # name -> element (canonical types only)
        self.type_alias = {}   # alias name -> canonical name
        self.constants = {}    # API constants
        self.enum_values = {}  # enum type -> {name: value}, canonical values
        self.enum_aliases = {}  # enum type -> {alias: canonical}
        self.enum_kinds = {}   # enum type -> ('enum'|'bitmask', bitwidth)
        self.providers = {}    # type name -> (core version or 0, [extension names])
        for t in root.find('types').findall('type'):
            name = t.get('name') or (t.find('name').text if t.find('name') is not None else None)
            if name is None or not is_vulkan_api(t):
                continue
            if t.get('alias'):
                self.type_alias[name] = t.get('alias')
            else:
                self.types[name] = t
        for enums in root.findall('enums'):
            name = enums.get('name')
            if name == 'API Constants':
                for e in enums.findall('enum'):
                    if e.get('value') is not None:
                        self.constants[e.get('name')] = e.get('value')
                continue
            kind = enums.get('type')
            if kind not in ('enum', 'bitmask'):
                continue
            self.enum_kinds[name] = (kind, int(enums.get('bitwidth', '32')))
            values = self.enum_values.setdefault(name, {})
            aliases = self.enum_aliases.setdefault(name, {})
            for e in enums.findall('enum'):
                if not is_vulkan_api(e):
                    continue
                self.add_enum(name, e, None, values, aliases)
        for feature in root.findall('feature'):
            if not is_vulkan_api(feature):
                continue
            version = version_number(feature.get('number'))
            self.add_requires(feature, None, version)
        for ext in root.find('extensions').findall('extension'):
            if not extension_enabled(ext):
                continue
            self.add_requires(ext, int(ext.get('number')), 0, ext.get('name'))

    def canonical(self, type_name):
        seen = set()
        while type_name in self.type_alias and type_name not in seen:
            seen.add(type_name)
            type_name = self.type_alias[type_name]
        return type_name

    def add_enum(self, type_name, e, ext_number, values, aliases):
        if e.get('protect') is not None:
            return
        name = e.get('name')
        if e.get('alias') is not None:
            aliases[name] = e.get('alias')
            return
        if e.get('bitpos') is not None:
            value = 1 << int(e.get('bitpos'))
        elif e.get('offset') is not None:
            number = int(e.get('extnumber') or ext_number)
            value = 1000000000 + (number - 1) * 1000 + int(e.get('offset'))
            if e.get('dir') == '-':
                value = -value
        elif e.get('value') is not None:
            value = int(e.get('value'), 0)
        else:
            return
        values[name] = value

    def add_requires(self, parent, ext_number, core_version, ext_name=None):
        for req in parent.findall('require'):
            if not is_vulkan_api(req):
                continue
            for t in req.findall('type'):
                name = self.canonical(t.get('name'))
                core, exts = self.providers.setdefault(name, [0, []])
                if core_version and (core == 0 or core_version < core):
                    self.providers[name][0] = core_version
                if ext_name and ext_name not in exts:
                    exts.append(ext_name)
            for e in req.findall('enum'):
                extends = e.get('extends')
                if extends is None or not is_vulkan_api(e):
                    continue
                self.add_enum(extends, e, ext_number, self.enum_values.setdefault(extends, {}),
                              self.enum_aliases.setdefault(extends, {}))

    def declared(self, type_name):
        return self.canonical(type_name) in self.providers


class Member:
    def __init__(self, name, kind, type_name, enum_type, array_length):
        self.name, self.kind, self.type_name = name, kind, type_name
        self.enum_type, self.array_length = enum_type, array_length


def member_array_length(member_element, registry):
    text = ''.join(member_element.itertext())
    after_name = text.split(member_element.find('name').text, 1)[1]
    if '[' not in after_name:
        return 0
    length = 1
    for part in after_name.split('[')[1:]:
        token = part.split(']')[0].strip()
        if token in registry.constants:
            token = registry.constants[token]
        length *= int(token, 0)
    return length


def describe_struct(registry, name):
    t = registry.types[name]
    stype = None
    members = []
    for m in t.findall('member'):
        if not is_vulkan_api(m):
            continue
        mname = m.find('name').text
        mtype = m.find('type').text
        if mname == 'sType':
            stype = m.get('values')
            continue
        if mname == 'pNext':
            continue
        tail = (m.find('type').tail or '')
        if '*' in tail:
            continue  # pointers cannot come from a profile
        ctype = registry.canonical(mtype)
        length = member_array_length(m, registry)
        enum_type = ''
        if ctype in SCALAR_KINDS:
            kind = SCALAR_KINDS[ctype]
        else:
            element = registry.types.get(ctype)
            if element is None:
                fail('%s.%s: unknown type %s' % (name, mname, mtype))
            category = element.get('category')
            if category == 'enum':
                kind, enum_type = 'Enum', ctype
            elif category == 'bitmask':
                base = element.find('type').text
                kind = 'Flags64' if base == 'VkFlags64' else 'Flags32'
                bits = element.get('requires') or element.get('bitvalues') or ''
                enum_type = registry.canonical(bits) if bits else ''
            elif category == 'struct':
                kind = 'Struct'
            else:
                fail('%s.%s: unsupported type %s (category %s)' % (name, mname, mtype, category))
        members.append(Member(mname, kind, ctype, enum_type, length))
    return stype, members


def cpp_string(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def cpp_int64(value):
    # 64-bit flag bits up to bit 63 are stored as the int64_t with the same bit pattern.
    if value >= (1 << 63):
        return 'static_cast<int64_t>(0x%xull)' % value
    if value == -(1 << 63):
        return '(-9223372036854775807ll - 1)'
    return '%dll' % value


def main():
    if len(sys.argv) != 3:
        fail('usage: gen_struct_table.py VK_XML OUTPUT_CPP')
    try:
        root = ET.parse(sys.argv[1]).getroot()
    except (OSError, ET.ParseError) as e:
        fail('cannot read %s: %s' % (sys.argv[1], e))
    registry = Registry(root)

    roles = {}
    for name, element in registry.types.items():
        if element.get('category') != 'struct' or not registry.declared(name):
            continue
        for extended in (element.get('structextends') or '').split(','):
            if extended in EXTENDED_ROLES:
                roles.setdefault(name, EXTENDED_ROLES[extended])
    for name, role in BASE_STRUCTS.items():
        roles[name] = role

    structs = {}
    pending = sorted(roles)
    while pending:
        name = pending.pop()
        if name in structs:
            continue
        stype, members = describe_struct(registry, name)
        structs[name] = (roles.get(name, 'Nested'), stype, members)
        for m in members:
            if m.kind == 'Struct' and m.type_name not in structs:
                if not registry.declared(m.type_name):
                    fail('%s.%s: nested struct %s is not declared' % (name, m.name, m.type_name))
                pending.append(m.type_name)

    enum_types = set(EXTRA_ENUMS)
    for _, _, members in structs.values():
        enum_types.update(m.enum_type for m in members if m.enum_type)
    for e in enum_types:
        if e not in registry.enum_values:
            fail('enum type %s not found' % e)

    names = sorted(structs)
    index = {n: i for i, n in enumerate(names)}
    struct_aliases = {}
    for alias, target in registry.type_alias.items():
        target = registry.canonical(target)
        if target in index and registry.declared(alias):
            struct_aliases.setdefault(target, []).append(alias)

    out = []
    w = out.append
    w('// Generated by src/profile/gen_struct_table.py from %s. Do not edit.' % sys.argv[1])
    w('#include <vulkan/vulkan.h>')
    w('')
    w('#include <cstddef>')
    w('')
    w('#include "profile/struct_table_data.h"')
    w('')
    w('namespace crashtest::generated {')
    w('namespace {')
    w('')
    w('using enum MemberKind;')
    w('using enum StructRole;')
    w('')
    for i, name in enumerate(names):
        role, stype, members = structs[name]
        w('constexpr MemberInfo kMembers%d[] = {  // %s' % (i, name))
        for m in members:
            element_size = 'sizeof(%s::%s)' % (name, m.name)
            if m.array_length:
                element_size += ' / %d' % m.array_length
            w('    {%s, offsetof(%s, %s), %s, %s, %d, %s, %s},' % (
                cpp_string(m.name), name, m.name, element_size, m.kind, m.array_length,
                cpp_string(m.type_name), cpp_string(m.enum_type)))
        if not members:
            w('    {},')
        w('};')
        aliases = sorted(struct_aliases.get(name, []))
        if aliases:
            w('constexpr std::string_view kAliases%d[] = {%s};' % (i, ', '.join(cpp_string(a) for a in aliases)))
        core, exts = registry.providers.get(name, (0, []))
        for alias in aliases:
            for ext in registry.providers.get(alias, (0, []))[1]:
                if ext not in exts:
                    exts.append(ext)
        if exts:
            w('constexpr std::string_view kExtensions%d[] = {%s};' % (
                i, ', '.join(cpp_string(e) for e in sorted(exts))))
    w('')
    w('}  // namespace')
    w('')
    w('const StructInfo kStructs[] = {')
    for i, name in enumerate(names):
        role, stype, members = structs[name]
        core, exts = registry.providers.get(name, (0, []))
        w('    {%s, %s, %s, %s, sizeof(%s), %s, {kMembers%d, %d}, %du, %s},' % (
            cpp_string(name),
            'kAliases%d' % i if struct_aliases.get(name) else '{}',
            'true' if stype else 'false',
            stype if stype else 'VkStructureType{}',
            name, role, i, len(members), core,
            'kExtensions%d' % i if exts else '{}'))
    w('};')
    w('const std::size_t kStructCount = %d;' % len(names))
    w('')
    alias_rows = sorted((a, index[t]) for t, al in struct_aliases.items() for a in al)
    w('const StructAlias kStructAliases[] = {')
    for alias, target in alias_rows:
        w('    {%s, %d},' % (cpp_string(alias), target))
    if not alias_rows:
        w('    {},')
    w('};')
    w('const std::size_t kStructAliasCount = %d;' % len(alias_rows))
    w('')

    links = []
    for name in names:
        role, stype, members = structs[name]
        core, exts = registry.providers.get(name, (0, []))
        # The aggregates themselves are skipped, not every name that starts alike: VkPhysicalDeviceVulkanMemoryModelFeatures
        # is an individual struct promoted to 1.2.
        if (role not in ('Features', 'Properties') or not stype or
                re.match(r'VkPhysicalDeviceVulkan1\d+(Features|Properties)$', name)):
            continue
        if core not in (version_number('1.1'), version_number('1.2'), version_number('1.3')):
            continue
        minor = (core >> 12) & 0x3ff
        aggregate = 'VkPhysicalDeviceVulkan1%d%s' % (minor, role)
        if aggregate not in structs:
            continue
        aggregate_members = {m.name: (k, m) for k, m in enumerate(structs[aggregate][2])}
        for k, m in enumerate(members):
            target = AGGREGATE_RENAMES.get((name, m.name), m.name)
            if target in aggregate_members:
                ak, am = aggregate_members[target]
                if (am.kind, am.type_name, am.array_length) != (m.kind, m.type_name, m.array_length):
                    fail('%s.%s and %s.%s differ in type' % (name, m.name, aggregate, target))
                links.append((index[name], k, index[aggregate], ak))
    w('const MemberLink kMemberLinks[] = {')
    for link in links:
        w('    {%d, %d, %d, %d},' % link)
    w('};')
    w('const std::size_t kMemberLinkCount = %d;' % len(links))
    w('')

    enum_names = sorted(enum_types)
    for i, e in enumerate(enum_names):
        values = registry.enum_values[e]
        aliases = registry.enum_aliases.get(e, {})
        rows = [(n, v) for n, v in values.items()]
        for alias, target in aliases.items():
            while target in aliases and target not in values:
                target = aliases[target]
            if target in values:
                rows.append((alias, values[target]))
        if not rows:
            continue  # reserved bits types without values yet
        w('constexpr EnumEntry kEnumByName%d[] = {' % i)
        for n, v in sorted(rows):
            w('    {%s, %s},' % (cpp_string(n), cpp_int64(v)))
        w('};')
        w('constexpr EnumEntry kEnumByValue%d[] = {' % i)
        for n, v in sorted(((n, v) for n, v in values.items()), key=lambda r: (r[1], r[0])):
            w('    {%s, %s},' % (cpp_string(n), cpp_int64(v)))
        w('};')
    w('const EnumTypeInfo kEnumTypes[] = {')
    for i, e in enumerate(enum_names):
        kind, width = registry.enum_kinds.get(e, ('enum', 32))
        tables = ('kEnumByName%d, kEnumByValue%d' % (i, i)) if registry.enum_values[e] else '{}, {}'
        w('    {%s, %s, %s, %s},' % (
            cpp_string(e), 'true' if kind == 'bitmask' else 'false', 'true' if width == 64 else 'false', tables))
    w('};')
    w('const std::size_t kEnumTypeCount = %d;' % len(enum_names))
    w('')
    w('}  // namespace crashtest::generated')
    with open(sys.argv[2], 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()

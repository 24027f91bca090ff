#!/usr/bin/env python3
"""Generates spirv_operands.h/.cpp from spirv.core.grammar.json: the operand tables the SPIR-V reader
(lowering/spirv_reader.cpp) walks instead of SPIRV-Tools' binary parser.

  - per opcode, its operand kinds with their quantifiers ('?' optional, '*' variadic);
  - per operand kind, its category (result id, type id, id, scope id, memory-semantics id, the literal kinds, the
    pair kinds, value enum, bit enum) and the spv_operand_type_t SPIRV-Tools' parser reports for it;
  - per enum value (value enums) or bit (bit enums), the operands it adds, e.g. ImageOperands Lod an IdRef,
    MemoryAccess Aligned a LiteralInteger, Decoration SpecId a LiteralInteger, ExecutionMode LocalSize three.

Extended instruction sets need no table: every set a Vulkan shader may import (GLSL.std.450, NonSemantic.*,
SPV_AMD_*) takes only ids after the instruction number, which OpExtInst's own 'IdRef*' describes."""
import argparse
import json
import re

# Category of each Id, Literal and Composite kind; enum kinds take theirs from the grammar's category.
FIXED_CATEGORIES = {
    'IdResultType': 'TypeId', 'IdResult': 'ResultId', 'IdRef': 'Id', 'IdScope': 'ScopeId',
    'IdMemorySemantics': 'MemorySemanticsId',
    'LiteralInteger': 'LiteralInteger', 'LiteralString': 'LiteralString',
    'LiteralContextDependentNumber': 'LiteralContextDependentNumber',
    'LiteralExtInstInteger': 'LiteralExtInstNumber', 'LiteralSpecConstantOpInteger': 'LiteralSpecConstantOpNumber',
    'PairLiteralIntegerIdRef': 'PairLiteralIntegerIdRef', 'PairIdRefLiteralInteger': 'PairIdRefLiteralInteger',
    'PairIdRefIdRef': 'PairIdRefIdRef',
}
# spv_operand_type_t of a parsed operand of each kind, where SPIRV-Tools' name is not the kind's name in
# UPPER_SNAKE_CASE (its grammar generator renames these). Pair kinds parse as two operands: the reader types
# each half itself.
TOOLS_TYPE_RENAMES = {
    'IdResultType': 'TYPE_ID', 'IdResult': 'RESULT_ID', 'IdRef': 'ID', 'IdScope': 'SCOPE_ID',
    'IdMemorySemantics': 'MEMORY_SEMANTICS_ID', 'Scope': 'SCOPE_ID', 'MemorySemantics': 'MEMORY_SEMANTICS_ID',
    'LiteralContextDependentNumber': 'TYPED_LITERAL_NUMBER', 'LiteralExtInstInteger': 'EXTENSION_INSTRUCTION_NUMBER',
    'LiteralSpecConstantOpInteger': 'SPEC_CONSTANT_OP_NUMBER', 'ImageOperands': 'IMAGE', 'Dim': 'DIMENSIONALITY',
    'ImageFormat': 'SAMPLER_IMAGE_FORMAT', 'KernelEnqueueFlags': 'KERNEL_ENQ_FLAGS',
    'FPRoundingMode': 'FP_ROUNDING_MODE', 'FPFastMathMode': 'FP_FAST_MATH_MODE',
    'PairLiteralIntegerIdRef': 'NONE', 'PairIdRefLiteralInteger': 'NONE', 'PairIdRefIdRef': 'NONE',
}
QUANTIFIERS = {'': 'One', '?': 'Optional', '*': 'Variadic'}


def tools_type(kind, known_types):
    name = TOOLS_TYPE_RENAMES.get(kind) or re.sub(r'([a-z])([A-Z])', r'\1_\2', kind).upper()
    # A kind newer than the installed SPIRV-Tools: lowering only needs the id categories exactly, and treats any
    # other type as literal words, which an enum is.
    return 'SPV_OPERAND_TYPE_' + name if name in known_types else 'SPV_OPERAND_TYPE_NONE'


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--core', required=True)
    parser.add_argument('--libspirv', required=True, help="SPIRV-Tools' libspirv.h, for the spv_operand_type_t names")
    parser.add_argument('--header', required=True)
    parser.add_argument('--source', required=True)
    args = parser.parse_args()
    with open(args.core, encoding='utf-8') as f:
        core = json.load(f)
    with open(args.libspirv, encoding='utf-8') as f:
        known_types = set(re.findall(r'\bSPV_OPERAND_TYPE_([A-Z0-9_]+)\b', f.read()))

    kinds = core['operand_kinds']
    kind_index = {k['kind']: i for i, k in enumerate(kinds)}
    if len(kinds) > 255:
        raise SystemExit('gen_spirv_operands.py: more than 255 operand kinds; widen OperandKind')
    categories = []
    for k in kinds:
        if k['category'] in ('ValueEnum', 'BitEnum'):
            categories.append(k['category'])
        elif k['kind'] in FIXED_CATEGORIES:
            categories.append(FIXED_CATEGORIES[k['kind']])
        else:
            raise SystemExit(f"gen_spirv_operands.py: operand kind {k['kind']} ({k['category']}) has no category; "
                             'teach the generator and the reader how to read it')

    specs = []  # (kind, quantifier) shared by opcodes and enum parameters
    spec_index = {}

    def intern(operands):
        """Index of the operand list in `specs`, appending it unless the same list is already there."""
        key = tuple((o['kind'], o.get('quantifier', '')) for o in operands)
        if not key:
            return 0, 0
        if key not in spec_index:
            spec_index[key] = len(specs)
            for kind, quantifier in key:
                if kind not in kind_index:
                    raise SystemExit(f'gen_spirv_operands.py: unknown operand kind {kind}')
                specs.append((kind, quantifier))
        return spec_index[key], len(key)

    opcodes = {}
    for inst in core['instructions']:
        if inst['opcode'] in opcodes:
            continue  # an alias: same opcode, same operands; the first name is canonical
        operands = inst.get('operands', [])
        first, count = intern(operands)
        if count > 255:
            raise SystemExit(f"gen_spirv_operands.py: {inst['opname']} has more than 255 operands")
        opcodes[inst['opcode']] = (inst['opname'], first, count)
    max_opcode = max(opcodes)

    # Per enum kind: value -> (first, count) of its parameters; aliases share a value and keep the first.
    enum_parameters = {}
    bit_enums = {}
    for k in kinds:
        if k['category'] not in ('ValueEnum', 'BitEnum'):
            continue
        values = {}
        for e in k.get('enumerants', []):
            value = int(e['value'], 0) if isinstance(e['value'], str) else e['value']
            if value not in values:
                values[value] = intern(e.get('parameters', []))
        enum_parameters[k['kind']] = values
        if k['category'] == 'BitEnum':
            known = 0
            with_parameters = 0
            for value, (_, count) in values.items():
                known |= value
                if count:
                    with_parameters |= value
            bit_enums[k['kind']] = (known, with_parameters)
    if len(specs) > 65535:
        raise SystemExit('gen_spirv_operands.py: operand table over 65535 entries; widen the indices')

    with open(args.header, 'w', encoding='utf-8') as h:
        h.write('// Generated by src/pipeline/gen_spirv_operands.py from the SPIR-V grammar. Do not edit.\n')
        h.write('#pragma once\n\n#include <spirv-tools/libspirv.h>\n\n#include <cstdint>\n\n')
        h.write('namespace crashtest::spirv {\n\n')
        h.write('// How the reader reads an operand kind.\nenum class OperandCategory : uint8_t {\n'
                '  ResultId, TypeId, Id, ScopeId, MemorySemanticsId,\n'
                '  LiteralInteger,                 // one word\n'
                '  LiteralString,                  // NUL-terminated UTF-8, padded to whole words\n'
                '  LiteralContextDependentNumber,  // as wide as the result type (OpConstant) or selector (OpSwitch)\n'
                '  LiteralExtInstNumber,           // OpExtInst\'s instruction number\n'
                '  LiteralSpecConstantOpNumber,    // OpSpecConstantOp\'s opcode: its operands follow\n'
                '  PairLiteralIntegerIdRef, PairIdRefLiteralInteger, PairIdRefIdRef,  // two operands each\n'
                '  ValueEnum,                      // one word; the value may add operands\n'
                '  BitEnum,                        // one word; each set bit may add operands, lowest bit first\n'
                '};\n\n')
        h.write('enum class Quantifier : uint8_t { One, Optional, Variadic };\n\n')
        h.write('// The grammar\'s operand kinds.\nenum class OperandKind : uint8_t {\n')
        for k in kinds:
            h.write(f"  {k['kind']},\n")
        h.write('};\n')
        h.write(f'inline constexpr uint32_t kOperandKindCount = {len(kinds)};\n\n')
        h.write('// One operand of an opcode or enumerant, with its kind\'s category at hand (for the reader\'s '
                'inner loop).\n')
        h.write('struct OperandSpec {\n  OperandKind kind;\n  Quantifier quantifier;\n'
                '  OperandCategory category;\n};\n\n')
        h.write('struct OperandKindInfo {\n  OperandCategory category;\n'
                '  spv_operand_type_t toolsType;  // what spvBinaryParse reports (NONE for the pair kinds)\n'
                '  const char* name;\n};\n')
        h.write('extern const OperandKindInfo kOperandKinds[kOperandKindCount];\n\n')
        h.write('// Operand lists of opcodes and enum values, indexed by OpcodeInfo / EnumParameters.\n')
        h.write(f'extern const OperandSpec kOperandSpecs[{max(len(specs), 1)}];\n\n')
        h.write('struct OpcodeInfo {\n  uint16_t firstOperand;\n  uint8_t operandCount;\n'
                '  bool known;  // in the grammar\n};\n')
        h.write(f'inline constexpr uint32_t kMaxOpcode = {max_opcode};\n')
        h.write('extern const OpcodeInfo kOpcodes[kMaxOpcode + 1];\n\n')
        h.write('// nullptr for an opcode the grammar does not define.\n'
                'inline const OpcodeInfo* FindOpcode(uint32_t opcode) {\n'
                '  return opcode <= kMaxOpcode && kOpcodes[opcode].known ? &kOpcodes[opcode] : nullptr;\n}\n\n')
        h.write('struct EnumParameters {\n  uint16_t first;\n  uint8_t count;\n};\n')
        h.write('// The operands a value of a value enum, or one bit (or 0) of a bit enum, adds. false when the '
                'grammar has no\n// such value for the kind.\n')
        h.write('bool FindEnumParameters(OperandKind kind, uint32_t value, EnumParameters* parameters);\n\n')
        h.write('struct BitEnumInfo {\n  uint32_t knownBits;\n  uint32_t bitsWithParameters;\n};\n')
        h.write('extern const BitEnumInfo kBitEnums[kOperandKindCount];  // zero for other kinds\n\n')
        h.write('}  // namespace crashtest::spirv\n')

    with open(args.source, 'w', encoding='utf-8') as c:
        c.write('// Generated by src/pipeline/gen_spirv_operands.py from the SPIR-V grammar. Do not edit.\n')
        c.write('#include "pipeline/spirv_operands.h"\n\nnamespace crashtest::spirv {\n\n')
        c.write('const OperandKindInfo kOperandKinds[kOperandKindCount] = {\n')
        for k, category in zip(kinds, categories):
            c.write(f"    {{OperandCategory::{category}, {tools_type(k['kind'], known_types)}, \"{k['kind']}\"}},\n")
        c.write('};\n\n')
        c.write(f'const OperandSpec kOperandSpecs[{max(len(specs), 1)}] = {{\n')
        for i, (kind, quantifier) in enumerate(specs):
            category = categories[kind_index[kind]]
            c.write(f'    {{OperandKind::{kind}, Quantifier::{QUANTIFIERS[quantifier]}, OperandCategory::{category}}},'
                    f'  // {i}\n')
        if not specs:
            c.write('    {},\n')
        c.write('};\n\n')
        c.write('const OpcodeInfo kOpcodes[kMaxOpcode + 1] = {\n')
        for code in range(max_opcode + 1):
            if code in opcodes:
                name, first, count = opcodes[code]
                c.write(f'    {{{first}, {count}, true}},  // {code} {name}\n')
            else:
                c.write('    {0, 0, false},\n')
        c.write('};\n\n')
        c.write('bool FindEnumParameters(OperandKind kind, uint32_t value, EnumParameters* parameters) {\n'
                '  switch (kind) {\n')
        for kind, values in enum_parameters.items():
            c.write(f'    case OperandKind::{kind}:\n      switch (value) {{\n')
            plain = sorted(v for v, (_, count) in values.items() if count == 0)
            if plain:
                c.write('        ' + ' '.join(f'case {v}:' for v in plain) + '\n')
                c.write('          *parameters = {0, 0};\n          return true;\n')
            for value, (first, count) in sorted(values.items()):
                if count:
                    c.write(f'        case {value}: *parameters = {{{first}, {count}}}; return true;\n')
            c.write('        default: return false;\n      }\n')
        c.write('    default: return false;\n  }\n}\n\n')
        c.write('const BitEnumInfo kBitEnums[kOperandKindCount] = {\n')
        for k in kinds:
            known, with_parameters = bit_enums.get(k['kind'], (0, 0))
            c.write(f"    {{0x{known:08x}u, 0x{with_parameters:08x}u}},  // {k['kind']}\n")
        c.write('};\n\n}  // namespace crashtest::spirv\n')


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Writes corpus.txt, the shader-corpus manifest, by reading the compiled SPIR-V modules themselves.

Everything in a line is derived from the binary (stage, descriptor bindings, workgroup size, push-constant
size, shared memory, tags), so the manifest cannot drift from the shaders. Standard library only.

Usage: corpus_manifest.py --output corpus.txt MODULE.spv...
Line format (see docs/shader-corpus.md):
  <file> <stage> <tag,tag,...> bindings=<set.binding:type[,...]|-> local_size=<x,y,z|-> push_constants=<bytes>
  shared_bytes=<bytes> source=<path relative to tests/shaders>
"""
import argparse
import os
import struct
import sys

MAGIC = 0x07230203

# Opcodes (SPIR-V 1.6 unified specification).
OP_SOURCE_EXTENSION, OP_NAME = 4, 5
OP_EXTENSION, OP_EXT_INST_IMPORT, OP_EXT_INST = 10, 11, 12
OP_ENTRY_POINT, OP_EXECUTION_MODE, OP_CAPABILITY = 15, 16, 17
OP_TYPE_VOID, OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR, OP_TYPE_MATRIX = 19, 20, 21, 22, 23, 24
OP_TYPE_IMAGE, OP_TYPE_SAMPLER, OP_TYPE_SAMPLED_IMAGE, OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY = 25, 26, 27, 28, 29
OP_TYPE_STRUCT, OP_TYPE_POINTER = 30, 32
OP_CONSTANT, OP_SPEC_CONSTANT, OP_SPEC_CONSTANT_COMPOSITE = 43, 50, 51
OP_FUNCTION, OP_FUNCTION_CALL, OP_VARIABLE, OP_IMAGE_TEXEL_POINTER = 54, 57, 59, 60
OP_DECORATE, OP_MEMBER_DECORATE = 71, 72
OP_EXECUTION_MODE_ID = 331
OP_LOOP_MERGE, OP_SWITCH, OP_KILL = 246, 251, 252
OP_TERMINATE_INVOCATION, OP_DEMOTE = 4416, 5380
OP_CONTROL_BARRIER, OP_MEMORY_BARRIER = 224, 225
OP_TYPE_ACCELERATION_STRUCTURE = 5341

SAMPLE_OPS = set(range(87, 95)) | {96, 97} | set(range(305, 313))  # OpImageSample*, gathers, sparse forms
IMAGE_OPS = SAMPLE_OPS | {95, 98, 99} | set(range(103, 108))  # + fetch, read, write, queries
DERIVATIVE_OPS = set(range(207, 216))  # OpDPdx .. OpFwidthCoarse
ATOMIC_OPS = set(range(227, 243)) | {6035, 5614, 5615, 4407}  # OpAtomic*, FAdd/FMin/FMax, AtomicFlag*

EXECUTION_MODELS = {0: "vert", 1: "tesc", 2: "tese", 3: "geom", 4: "frag", 5: "comp"}
EXEC_MODE_LOCAL_SIZE, EXEC_MODE_LOCAL_SIZE_ID = 17, 38
DEC_SPEC_ID, DEC_BLOCK, DEC_BUFFER_BLOCK, DEC_ARRAY_STRIDE, DEC_MATRIX_STRIDE = 1, 2, 3, 6, 7
DEC_BUILTIN, DEC_BINDING, DEC_DESCRIPTOR_SET, DEC_OFFSET = 11, 33, 34, 35
BUILTIN_WORKGROUP_SIZE = 25
SC_UNIFORM_CONSTANT, SC_UNIFORM, SC_WORKGROUP, SC_PUSH_CONSTANT, SC_STORAGE_BUFFER = 0, 2, 4, 9, 12

# Capabilities that become tags.
CAPABILITY_TAGS = {
    9: "fp16", 10: "fp64", 11: "int64", 22: "int16", 39: "int8",
    61: "subgroup", 62: "subgroup", 63: "subgroup", 64: "subgroup", 65: "subgroup", 66: "subgroup",
    67: "subgroup", 68: "subgroup",
    5347: "bda",  # PhysicalStorageBufferAddresses
    4433: "16bit_storage", 4434: "16bit_storage", 4435: "16bit_storage", 4436: "16bit_storage",
    5345: "memory_model",  # VulkanMemoryModel
}


class Module:
    def __init__(self, words):
        if len(words) < 5 or words[0] != MAGIC:
            raise ValueError("not a little-endian SPIR-V module")
        self.instructions = []
        i = 5
        while i < len(words):
            count = words[i] >> 16
            if count == 0 or i + count > len(words):
                raise ValueError(f"malformed instruction at word {i}")
            self.instructions.append((words[i] & 0xFFFF, words[i + 1:i + count]))
            i += count


def decode_string(operands):
    raw = b"".join(struct.pack("<I", w) for w in operands)
    return raw.split(b"\0", 1)[0].decode("utf-8")


def describe(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) % 4:
        raise ValueError(f"{path}: size is not a multiple of 4")
    module = Module(list(struct.unpack(f"<{len(data) // 4}I", data)))

    types = {}           # id -> (opcode, operands)
    constants = {}       # id -> int value (scalar constants and spec-constant defaults)
    decorations = {}     # id -> {decoration: [operands]}
    member_decorations = {}  # (struct id, member) -> {decoration: [operands]}
    variables = []       # (id, pointer type id, storage class)
    tags = set()
    stage = None
    local_size = None
    local_size_ids = None
    functions = 0
    spec_composites = {}

    for op, ops in module.instructions:
        if op == OP_CAPABILITY and ops[0] in CAPABILITY_TAGS:
            tags.add(CAPABILITY_TAGS[ops[0]])
        elif op == OP_ENTRY_POINT:
            if stage is not None:
                raise ValueError(f"{path}: more than one entry point")
            stage = EXECUTION_MODELS.get(ops[0], f"model{ops[0]}")
        elif op == OP_EXECUTION_MODE and ops[1] == EXEC_MODE_LOCAL_SIZE:
            local_size = tuple(ops[2:5])
        elif op == OP_EXECUTION_MODE_ID and ops[1] == EXEC_MODE_LOCAL_SIZE_ID:
            local_size_ids = tuple(ops[2:5])
        elif op in (OP_TYPE_VOID, OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR, OP_TYPE_MATRIX,
                    OP_TYPE_IMAGE, OP_TYPE_SAMPLER, OP_TYPE_SAMPLED_IMAGE, OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY,
                    OP_TYPE_STRUCT, OP_TYPE_POINTER, OP_TYPE_ACCELERATION_STRUCTURE):
            types[ops[0]] = (op, ops[1:])
        elif op in (OP_CONSTANT, OP_SPEC_CONSTANT):
            constants[ops[1]] = ops[2]
            if op == OP_SPEC_CONSTANT:
                tags.add("specconst")
        elif op == OP_SPEC_CONSTANT_COMPOSITE:
            spec_composites[ops[1]] = ops[2:]
        elif op == OP_DECORATE:
            decorations.setdefault(ops[0], {})[ops[1]] = ops[2:]
            if ops[1] == DEC_SPEC_ID:
                tags.add("specconst")
        elif op == OP_MEMBER_DECORATE:
            member_decorations.setdefault((ops[0], ops[1]), {})[ops[2]] = ops[3:]
        elif op == OP_VARIABLE:
            variables.append((ops[1], ops[0], ops[2]))
        elif op == OP_FUNCTION:
            functions += 1
        elif op == OP_FUNCTION_CALL:
            tags.add("calls")
        elif op == OP_LOOP_MERGE:
            tags.add("loop")
        elif op == OP_SWITCH:
            tags.add("switch")
        elif op == OP_KILL:
            tags.add("discard")
        elif op == OP_TERMINATE_INVOCATION:
            tags.add("terminate")
        elif op == OP_DEMOTE:
            tags.add("demote")
        elif op in (OP_CONTROL_BARRIER, OP_MEMORY_BARRIER):
            tags.add("barrier")
        elif op in ATOMIC_OPS:
            tags.add("atomics")
        elif op in DERIVATIVE_OPS:
            tags.add("derivatives")
        elif op == OP_EXT_INST:
            tags.add("glsl450")
        if op in SAMPLE_OPS:
            tags.add("sampling")
        if op in IMAGE_OPS or op == OP_IMAGE_TEXEL_POINTER:
            tags.add("image")

    if stage is None:
        raise ValueError(f"{path}: no entry point")

    def scalar_bytes(type_id):
        op, ops = types[type_id]
        if op in (OP_TYPE_INT, OP_TYPE_FLOAT):
            return ops[0] // 8
        if op == OP_TYPE_BOOL:
            return 4
        raise ValueError(f"{path}: %{type_id} is not a scalar")

    def size_of(type_id, explicit):
        """Byte size. explicit=True honours Offset/ArrayStride/MatrixStride (buffer layouts); False packs
        tightly (workgroup variables have no explicit layout, so the natural size is what they declare)."""
        op, ops = types[type_id]
        if op in (OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_BOOL):
            return scalar_bytes(type_id)
        if op == OP_TYPE_VECTOR:
            return size_of(ops[0], explicit) * ops[1]
        if op == OP_TYPE_MATRIX:
            return size_of(ops[0], explicit) * ops[1]
        if op == OP_TYPE_ARRAY:
            length = constants.get(ops[1], 0)
            stride = decorations.get(type_id, {}).get(DEC_ARRAY_STRIDE) if explicit else None
            return (stride[0] if stride else size_of(ops[0], explicit)) * length
        if op == OP_TYPE_RUNTIME_ARRAY:
            return 0
        if op == OP_TYPE_STRUCT:
            end = 0
            running = 0
            for index, member in enumerate(ops):
                md = member_decorations.get((type_id, index), {})
                offset = md.get(DEC_OFFSET, [running])[0] if explicit else running
                member_size = size_of(member, explicit)
                mop, mops = types[member]
                if explicit and DEC_MATRIX_STRIDE in md and mop in (OP_TYPE_MATRIX, OP_TYPE_ARRAY):
                    inner = member
                    count = 1
                    while types[inner][0] == OP_TYPE_ARRAY:
                        count *= constants.get(types[inner][1][1], 0)
                        inner = types[inner][1][0]
                    columns = types[inner][1][1]
                    member_size = max(member_size, count * columns * md[DEC_MATRIX_STRIDE][0])
                running = offset + member_size
                end = max(end, running)
            return end
        if op == OP_TYPE_POINTER:
            return 8
        raise ValueError(f"{path}: cannot size %{type_id} (opcode {op})")

    def descriptor(type_id, storage_class):
        count = ""
        op, ops = types[type_id]
        while op in (OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY):
            count += f"[{constants.get(ops[1], 0)}]" if op == OP_TYPE_ARRAY else "[]"
            type_id = ops[0]
            op, ops = types[type_id]
        if storage_class == SC_STORAGE_BUFFER:
            return "storage_buffer" + count
        if storage_class == SC_UNIFORM:
            block = decorations.get(type_id, {})
            return ("storage_buffer" if DEC_BUFFER_BLOCK in block else "uniform_buffer") + count
        if op == OP_TYPE_SAMPLED_IMAGE:
            image = types[ops[0]][1]
            kind = "uniform_texel_buffer" if image[1] == 5 else "combined_image_sampler"
            return kind + count
        if op == OP_TYPE_SAMPLER:
            return "sampler" + count
        if op == OP_TYPE_ACCELERATION_STRUCTURE:
            return "acceleration_structure" + count
        if op == OP_TYPE_IMAGE:
            dim, sampled = ops[1], ops[5]
            if dim == 6:
                return "input_attachment" + count
            if dim == 5:
                return ("uniform_texel_buffer" if sampled == 1 else "storage_texel_buffer") + count
            return ("sampled_image" if sampled == 1 else "storage_image") + count
        raise ValueError(f"{path}: unknown descriptor type for %{type_id}")

    bindings = []
    push_bytes = 0
    shared_bytes = 0
    for var_id, pointer_type, storage_class in variables:
        pointee = types[pointer_type][1][1]
        dec = decorations.get(var_id, {})
        if DEC_BINDING in dec:
            set_index = dec.get(DEC_DESCRIPTOR_SET, [0])[0]
            bindings.append((set_index, dec[DEC_BINDING][0], descriptor(pointee, storage_class)))
        elif storage_class == SC_PUSH_CONSTANT:
            push_bytes = max(push_bytes, size_of(pointee, True))
        elif storage_class == SC_WORKGROUP:
            shared_bytes += size_of(pointee, False)

    if stage == "comp":
        tags.add("compute")
        # A WorkgroupSize built-in (possibly a spec-constant composite) overrides LocalSize.
        for target, dec in decorations.items():
            if dec.get(DEC_BUILTIN, [None])[0] == BUILTIN_WORKGROUP_SIZE and target in spec_composites:
                local_size = tuple(constants.get(c, 1) for c in spec_composites[target])
        if local_size is None and local_size_ids is not None:
            local_size = tuple(constants.get(c, 1) for c in local_size_ids)
    else:
        tags.add("graphics")
    if functions > 1:
        tags.add("calls")
    if shared_bytes:
        tags.add("shared")
    if push_bytes:
        tags.add("push_constants")
    kinds = {b[2].split("[")[0] for b in bindings}
    if any(k.endswith("buffer") and "texel" not in k for k in kinds):
        tags.add("buffers")
    if stage == "comp" and "image" not in tags and kinds <= {"storage_buffer", "uniform_buffer"}:
        tags.add("buffers_only")

    return {
        "stage": stage,
        "tags": sorted(tags),
        "bindings": sorted(bindings),
        "local_size": local_size,
        "push_constants": push_bytes,
        "shared_bytes": shared_bytes,
    }


def source_name(spv_name):
    base = spv_name[:-len(".spv")]
    if base.startswith("stats_"):
        return "stats/" + base[len("stats_"):]
    return base


def family_tags(spv_name):
    if not spv_name.startswith("stats_"):
        return set()
    stem = spv_name[len("stats_"):].split(".")[0]       # pressure_04, shared_1k, loop_none ...
    return {"stats", "stats_" + (stem.rsplit("_", 1)[0] if "_" in stem else stem)}


def manifest_line(path):
    name = os.path.basename(path)
    info = describe(path)
    tags = sorted(set(info["tags"]) | family_tags(name))
    bindings = ",".join(f"{s}.{b}:{t}" for s, b, t in info["bindings"]) or "-"
    local = ",".join(str(v) for v in info["local_size"]) if info["local_size"] else "-"
    return (f"{name} {info['stage']} {','.join(tags)} bindings={bindings} local_size={local} "
            f"push_constants={info['push_constants']} shared_bytes={info['shared_bytes']} "
            f"source={source_name(name)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", required=True)
    parser.add_argument("modules", nargs="+")
    args = parser.parse_args()
    lines = ["# crashtest shader corpus manifest (generated by tests/shaders/corpus_manifest.py; see "
             "docs/shader-corpus.md)",
             "# file stage tags bindings=set.binding:type,... local_size=x,y,z push_constants=bytes "
             "shared_bytes=bytes source=path"]
    try:
        lines += [manifest_line(m) for m in sorted(args.modules, key=os.path.basename)]
    except (ValueError, KeyError, OSError) as error:
        print(f"corpus_manifest.py: {error}", file=sys.stderr)
        return 1
    text = "\n".join(lines) + "\n"
    # Rewrite only on change so dependants are not rebuilt needlessly.
    try:
        with open(args.output, encoding="utf-8") as f:
            if f.read() == text:
                return 0
    except OSError:
        pass
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

// control_flow.comp — a small state machine interpreting per-invocation bytecode.
// Exercises: switch with fall-through, default and shared case bodies (OpSwitch), nested loops with break and
// continue at both levels, do-while, a labelled exit via a flag, ternary selects, short-circuit && and || that
// produce control flow, early return.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Program { uint code[]; };
layout(set = 0, binding = 1, std430) buffer Registers { int regs[]; };
layout(push_constant) uniform Push { uint program_length; uint max_steps; } pc;

void main() {
    uint id = gl_GlobalInvocationID.x;
    int acc = regs[id];
    int counter = 0;
    uint pc_index = 0u;
    uint steps = 0u;
    bool halted = false;
    while (!halted && steps < pc.max_steps) {
        ++steps;
        if (pc_index >= pc.program_length) {
            break;
        }
        uint instr = code[pc_index];
        uint op = instr & 0xffu;
        int imm = int(instr) >> 8;
        pc_index++;
        switch (op) {
        case 0u:
            halted = true;
            break;
        case 1u:
            acc += imm;
            break;
        case 2u:
            acc -= imm;
            // fall through: subtract then double
        case 3u:
            acc *= 2;
            break;
        case 4u:
        case 5u:
            acc = op == 4u ? acc / max(imm, 1) : acc % max(imm, 1);
            break;
        case 6u:
            if (acc != 0 && imm >= 0) {
                pc_index = uint(imm);
            }
            continue;
        case 7u: {
            // Inner loop with its own break/continue.
            for (int i = 0; i < imm; ++i) {
                if ((i & 1) == 0) {
                    continue;
                }
                for (int j = 0; j < 4; ++j) {
                    counter += i * j;
                    if (counter > 1000) {
                        break;
                    }
                }
                if (counter > 5000 || acc < -5000) {
                    break;
                }
            }
            break;
        }
        default:
            acc = ~acc;
            break;
        }
    }
    int k = 0;
    do {
        acc ^= k;
        k += 3;
    } while (k < counter % 17);
    if (halted || steps == pc.max_steps) {
        regs[id] = acc + counter;
        return;
    }
    regs[id] = -acc;
}

#include "statistics/representations.h"

#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>

#include "pipeline/ir/printer.h"

namespace crashtest::statistics {
namespace {

void Append(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));
void Append(std::string& out, const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  int n = std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  if (n > 0) out.append(buffer, std::min(static_cast<size_t>(n), sizeof buffer - 1));
}

uint32_t SpirvId(const ir::Module& module, ir::ValueId value) { return module.values[value].spirvId; }

void AppendSpillEvents(const ir::Module& module, const SpillResult& spilling, std::string& out) {
  if (spilling.events.empty()) return;
  out += ";\n; spill and fill placement (furthest next use; loop exits count as far):\n";
  for (const SpillEvent& e : spilling.events) {
    switch (e.kind) {
      case SpillEvent::Kind::Spill:
        Append(out, ";   spill %%%u after its definition (block%u, instruction %u)\n", SpirvId(module, e.value),
               e.block, e.index);
        break;
      case SpillEvent::Kind::Fill:
        Append(out, ";   fill  %%%u before block%u, instruction %u\n", SpirvId(module, e.value), e.block, e.index);
        break;
      case SpillEvent::Kind::EdgeFill:
        Append(out, ";   fill  %%%u on the edge block%u -> block%u\n", SpirvId(module, e.value), e.block, e.index);
        break;
    }
  }
}

}  // namespace

std::string DisassembleSpirv(std::span<const uint32_t> words) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string message;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* text) {
    if (message.empty() && text != nullptr) message = text;
  });
  std::string text;
  if (!tools.Disassemble(words.data(), words.size(), &text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT))
    return "; disassembly failed: " + (message.empty() ? std::string("unknown error") : message) + "\n";
  return text;
}

std::string AnnotatedIrListing(const pipeline::CompiledShader& compiled, const MachineModel& model,
                               const ShaderStatistics& stats) {
  // The statistics are of the back end's view when there is one: list that IR, so the annotations match it.
  const pipeline::CompiledShader& shader = stats.backEndView != nullptr ? *stats.backEndView : compiled;
  const ir::Module& module = shader.module;
  std::string out;
  // Where the peak is: the first instruction with the maximal live count.
  ir::BlockId peakBlock = 0;
  uint32_t peakIndex = 0;
  uint32_t peak = 0;
  for (ir::BlockId b = 0; b < module.function.blocks.size(); ++b)
    for (uint32_t i = 0; i < module.function.blocks[b].instructions.size(); ++i)
      if (uint32_t live = shader.liveness.LiveComponentsAt(b, i); live > peak) {
        peak = live;
        peakBlock = b;
        peakIndex = i;
      }
  Append(out, "; register demand %" PRIu64 " (peak live 32-bit components", stats.registerDemand);
  if (peak != 0) Append(out, ", first at block%u instruction %u", peakBlock, peakIndex);
  Append(out, "); budget %u per invocation\n", model.registerBudget);
  if (model.loadSchedulingRegisters != 0)
    Append(out, "; scheduled demand %" PRIu64 " (loads kept in flight, %" PRIu64 " instructions moved; ceiling %u "
                "registers or the demand)\n",
           stats.scheduledRegisterDemand, stats.scheduledMoves, model.loadSchedulingRegisters);
  if (stats.inputRegisters != 0)
    Append(out, "; registers %" PRIu64 " = max(min(scheduled demand, budget), %" PRIu64 " input registers the "
                "hardware initialises) rounded up to the granule of %u\n",
           stats.registersAllocated, stats.inputRegisters, model.allocationGranule);
  else
    Append(out, "; registers %" PRIu64 " = min(scheduled demand, budget) rounded up to the granule of %u\n",
           stats.registersAllocated, model.allocationGranule);
  if (stats.heldOutputRegisters != 0)
    Append(out, "; of the demand, up to %" PRIu64 " components are outputs held in registers for the export at the "
                "end\n",
           stats.heldOutputRegisters);
  if (stats.temporaryRegisters != 0)
    Append(out, "; of the demand, up to %" PRIu64 " registers are temporaries of instructions the back end expands "
                "(subgroup reductions, atomics at a uniform address, integer division)\n",
           stats.temporaryRegisters);
  if (stats.arrayRegisters != 0)
    Append(out, "; of the demand, %" PRIu64 " components are dynamically indexed private arrays kept in registers "
                "(limit %u components each)\n",
           stats.arrayRegisters, model.privateArrayRegisterLimit);
  if (model.scalarRegisterBudget != 0)
    Append(out, "; scalar registers: demand %" PRIu64 " (uniform values once per subgroup, divergent booleans as "
                "lane masks), budget %u, allocated %" PRIu64 ", spilled %" PRIu64 "\n",
           stats.scalarRegisterDemand, model.scalarRegisterBudget, stats.scalarRegisters, stats.scalarSpills);
  Append(out, "; instructions %" PRIu64 ": scalar %" PRIu64 ", vector %" PRIu64 "; branches %" PRIu64
              ", divergent %" PRIu64 "\n",
         stats.instructions, stats.scalarInstructions, stats.vectorInstructions, stats.branches,
         stats.divergentBranches);
  Append(out, "; spills %" PRIu64 ", fills %" PRIu64 " (%u in loops), scratch %" PRIu64 " bytes per invocation\n",
         stats.spills, stats.fills, stats.spilling.fillsInLoops, stats.scratchBytes);
  Append(out, "; subgroups per core %" PRIu64 ", limited by %s (cap %u, register file %u per lane -> %" PRIu64,
         stats.subgroupsPerCore, OccupancyLimitName(stats.occupancyLimit), model.maxSubgroupsPerCore,
         model.registerFilePerLane,
         stats.registersAllocated == 0 ? uint64_t{0}
                                       : SubgroupsByRegisters(model, stats.registersAllocated, stats.subgroupSize));
  if (stats.workgroupMemoryBytes != 0)
    Append(out, ", workgroup memory %" PRIu64 " of %u bytes per core, %" PRIu64 " subgroups per workgroup",
           stats.workgroupMemoryBytes, model.sharedMemoryPerCore, stats.subgroupsPerWorkgroup);
  Append(out, "), subgroup size %u\n", stats.subgroupSize);
  Append(out, "; estimated cycles %" PRIu64 " (latencies: alu %u, transcendental %u, memory %u, shared %u, "
              "texture %u, branch %u, barrier %u, atomic %u; loops weighted by trip count)\n",
         stats.estimatedCycles, model.latency.alu, model.latency.transcendental, model.latency.memory,
         model.latency.shared, model.latency.texture, model.latency.branch, model.latency.barrier,
         model.latency.atomic);
  AppendSpillEvents(module, stats.spilling, out);
  out += ";\n";
  out += ir::Print(module, {&shader.loops, &shader.liveness, &stats.uniformity});
  return out;
}

}  // namespace crashtest::statistics

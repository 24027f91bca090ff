// Section 4: the pipelines bound at the failing command: name, bind point, each stage's hash and statistics and,
// for a fault inside a shader, the faulting instruction with its IR text, SPIR-V result id and source line.
#include "fault/dump/dump_sections.h"

namespace crashtest::dump {

void WritePipelinesSection(ByteWriter& w, std::span<const Pipeline> pipelines) {
  w.List(pipelines.size(), [&](size_t i) {
    const Pipeline& p = pipelines[i];
    w.U64(p.id);
    w.String(p.name);
    w.U32(p.bindPoint);
    w.U32(p.hasFault ? 1 : 0);
    if (p.hasFault) {
      const ShaderFaultSite& f = p.fault;
      w.U32(f.stage);
      w.U32(f.instruction);
      w.U32(f.spirvId);
      w.U32(f.spirvOpcode);
      w.String(f.spirvOpName);
      w.U32(f.line);
      w.U32(f.column);
      w.String(f.file);
      w.String(f.irText);
    }
    w.List(p.stages.size(), [&](size_t s) {
      const PipelineStageRecord& stage = p.stages[s];
      w.U32(stage.stage);
      w.String(stage.entryPoint);
      w.U64(stage.hash);
      w.List(stage.statistics.size(), [&](size_t k) {
        w.String(stage.statistics[k].name);
        w.String(stage.statistics[k].value);
      });
    });
  });
}

}  // namespace crashtest::dump

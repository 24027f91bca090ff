// The uniformity (divergence) analysis (src/pipeline/analysis/uniformity) on shaders whose uniform and divergent
// values are known by construction (tests/pipeline/shaders/uniformity*.comp), and its invariants over the corpus.
#include <gtest/gtest.h>

#include <spirv/unified1/spirv.hpp>

#include <string>

#include "pipeline/analysis/uniformity.h"
#include "pipeline/compiler.h"
#include "pipeline/ir/printer.h"
#include "test_shaders.h"

namespace crashtest::test {
namespace {

using analysis::Uniformity;

pipeline::CompiledShader MustCompile(const std::vector<uint32_t>& words, VkShaderStageFlagBits stage) {
  pipeline::CompileOptions options;
  options.stage = stage;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  EXPECT_TRUE(pipeline::Compile(words, options, &compiled, &error)) << error.message;
  return compiled;
}

// A purpose-built shader with one loop, compiled and analysed; `Loop()` is that loop.
struct OneLoopShader {
  OneLoopShader(const std::string& file, VkShaderStageFlagBits stage)
      : compiled(MustCompile(CompilerTestWords(file), stage)),
        uniformity(Uniformity::Build(compiled.module, compiled.postDominators, compiled.loops)) {
    EXPECT_EQ(compiled.loops.loops().size(), 1u) << ir::Print(compiled.module);
  }
  const analysis::Loop& Loop() const { return compiled.loops.loops().at(0); }
  pipeline::CompiledShader compiled;
  Uniformity uniformity;
};

struct Found {
  ir::BlockId block = ir::kNone;
  const ir::Instruction* inst = nullptr;
};

std::vector<Found> FindAll(const ir::Module& module, uint16_t op) {
  std::vector<Found> found;
  for (ir::BlockId b = 0; b < module.function.blocks.size(); ++b)
    for (const ir::Instruction& inst : module.function.blocks[b].instructions)
      if (inst.op == op) found.push_back({b, &inst});
  return found;
}

TEST(UniformityTest, SourcesOfDivergenceAndWhatStaysUniform) {
  pipeline::CompiledShader c = MustCompile(CompilerTestWords("uniformity.comp.spv"), VK_SHADER_STAGE_COMPUTE_BIT);
  const ir::Module& m = c.module;
  Uniformity u = Uniformity::Build(m, c.postDominators, c.loops);
  SCOPED_TRACE(ir::Print(m));

  // subgroupAdd reduces (uniform), subgroupInclusiveAdd scans (divergent).
  std::vector<Found> groupAdds = FindAll(m, spv::OpGroupNonUniformFAdd);
  ASSERT_EQ(groupAdds.size(), 2u);
  for (const Found& f : groupAdds) {
    uint32_t operation = m.Operands(*f.inst)[f.inst->valueCount];
    EXPECT_EQ(u.IsUniform(f.inst->result), operation == spv::GroupOperationReduce) << "group operation " << operation;
  }

  // Loads: gl_GlobalInvocationID and values[gid] diverge; the push constants, the uniform block, the loop's
  // values[i] and gl_WorkGroupID do not.
  size_t uniformLoads = 0, divergentLoads = 0;
  for (const Found& f : FindAll(m, spv::OpLoad)) (u.IsUniform(f.inst->result) ? uniformLoads : divergentLoads)++;
  EXPECT_GE(divergentLoads, 2u);
  EXPECT_GE(uniformLoads, 4u);

  // Three conditional branches: the loop's (on push constants), the if on v (divergent), the if on the sum.
  std::vector<Found> branches = FindAll(m, spv::OpBranchConditional);
  ASSERT_EQ(branches.size(), 3u);
  EXPECT_EQ(u.DivergentBranchCount(), 1u);
  for (const Found& f : branches) {
    const ir::Block& header = m.function.blocks[f.block];
    if (header.mergeKind != ir::MergeKind::Selection) {
      EXPECT_FALSE(u.IsDivergentBranch(f.block)) << "the loop over push constants is uniform";
      continue;
    }
    // Phis at a selection's merge are divergent exactly when the branch is.
    bool divergentBranch = u.IsDivergentBranch(f.block);
    size_t phis = 0;
    for (const ir::Instruction& inst : m.function.blocks[header.mergeBlock].instructions) {
      if (inst.op != spv::OpPhi) break;
      ++phis;
      EXPECT_EQ(u.IsUniform(inst.result), !divergentBranch);
    }
    EXPECT_GE(phis, 1u);
  }

  // The loop's phis (counter and sum) stay uniform.
  ASSERT_EQ(c.loops.loops().size(), 1u);
  for (const ir::Instruction& inst : m.function.blocks[c.loops.loops()[0].header].instructions) {
    if (inst.op != spv::OpPhi) break;
    EXPECT_TRUE(u.IsUniform(inst.result));
  }
}

TEST(UniformityTest, ALoopLeftAtDifferentIterationsIsUniformInsideAndDivergentAfter) {
  const OneLoopShader shader("uniformity_loop_exit.comp.spv", VK_SHADER_STAGE_COMPUTE_BIT);
  ASSERT_EQ(shader.compiled.loops.loops().size(), 1u);
  const Uniformity& u = shader.uniformity;
  const analysis::Loop& loop = shader.Loop();
  EXPECT_EQ(u.DivergentBranchCount(), 1u);
  size_t counters = 0;
  for (const ir::Instruction& inst : shader.compiled.module.function.blocks[loop.header].instructions) {
    if (inst.op != spv::OpPhi) break;
    ++counters;
    EXPECT_TRUE(u.IsUniform(inst.result));
    EXPECT_FALSE(u.IsDivergentAt(inst.result, loop.header));
    ASSERT_NE(loop.merge, ir::kNone);
    EXPECT_TRUE(u.IsDivergentAt(inst.result, loop.merge)) << "each invocation left at its own iteration";
  }
  EXPECT_EQ(counters, 1u);
  for (ir::BlockId b : loop.blocks) EXPECT_TRUE(u.InDivergentControl(b));
  EXPECT_FALSE(u.InDivergentControl(0));
}

// The analysis stops sweeping once a sweep changes nothing that an earlier-visited instruction read; a phi reads
// its back-edge value before the sweep reaches its definition, so a chain of such phis (here three, in one block)
// must still be followed to its end.
TEST(UniformityTest, DivergenceAroundABackEdgeReachesEveryPhiOfTheChain) {
  const OneLoopShader shader("uniformity_loop_chain.frag.spv", VK_SHADER_STAGE_FRAGMENT_BIT);
  ASSERT_EQ(shader.compiled.loops.loops().size(), 1u);
  const Uniformity& u = shader.uniformity;
  EXPECT_EQ(u.DivergentBranchCount(), 0u);
  size_t uniform = 0, divergent = 0;
  for (const ir::Instruction& inst : shader.compiled.module.function.blocks[shader.Loop().header].instructions) {
    if (inst.op != spv::OpPhi) break;
    (u.IsUniform(inst.result) ? uniform : divergent)++;
  }
  EXPECT_EQ(uniform, 1u) << "the counter";
  EXPECT_EQ(divergent, 3u) << "a, b and c";
}

// Over the corpus: compute shaders whose invocations read their own id have divergent values; a divergent branch
// always has a divergent condition; the analysis is deterministic.
TEST(UniformityTest, CorpusInvariants) {
  for (const CorpusShader& shader : ReadCorpus()) {
    SCOPED_TRACE(shader.file);
    pipeline::CompiledShader c = MustCompile(CorpusWords(shader.file), StageBit(shader.stage));
    const ir::Module& m = c.module;
    Uniformity u = Uniformity::Build(m, c.postDominators, c.loops);
    Uniformity again = Uniformity::Build(m, c.postDominators, c.loops);
    uint32_t branches = 0;
    for (ir::BlockId b = 0; b < m.function.blocks.size(); ++b) {
      const ir::Instruction& last = m.function.blocks[b].instructions.back();
      bool conditional = last.op == spv::OpBranchConditional || last.op == spv::OpSwitch;
      branches += conditional;
      if (!conditional) {
        EXPECT_FALSE(u.IsDivergentBranch(b));
      } else {
        EXPECT_EQ(u.IsDivergentBranch(b), u.IsDivergentAt(m.Operands(last)[0], b));
      }
      EXPECT_EQ(u.IsDivergentBranch(b), again.IsDivergentBranch(b));
    }
    EXPECT_LE(u.DivergentBranchCount(), branches);
    for (ir::ValueId v = 0; v < m.values.size(); ++v) {
      EXPECT_EQ(u.IsUniform(v), again.IsUniform(v));
      if (m.values[v].kind != ir::ValueKind::Instruction) {
        EXPECT_TRUE(u.IsUniform(v));
      }
    }
  }
}

}  // namespace
}  // namespace crashtest::test

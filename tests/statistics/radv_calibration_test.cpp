// Calibration against a real compiler (issue [statistics]): Mesa's RADV compiles for an AMD GPU without one when
// RADV_FORCE_FAMILY=navi21 is set, and reports ACO's statistics through VK_KHR_pipeline_executable_properties.
// Over the whole corpus (compute and graphics shaders), the rank correlation (Spearman) between our figures on
// the amd-rdna2 model and RADV's must be at least 0.8: registers against "VGPRs", instructions against
// "Instructions". Skips with a message when RADV is not installed (CI installs mesa-vulkan-drivers).
//
// Graphics shaders are compiled inside pipelines (calibration_corpus.cpp), between companion stages that match
// their interfaces. Like with like: RADV does not make one executable per stage. On navi21 (GFX10.3, Debian's
// Mesa 22.3) its executables are "Vertex Shader", "Fragment Shader", "Tessellation Evaluation Shader" (NGG,
// without a stage suffix in the name), "Vertex + Tessellation Control Shaders" (stages VS|TCS: the vertex shader
// runs as the LS half of the merged HS) and "Vertex + Geometry Shader" (VS|GS: NGG runs the geometry shader in
// the same wave as its vertex shader). So each RADV executable that contains a measured stage is one sample, and
// our side of it covers the same stages: the sum of their instructions and the largest register figure (merged
// stages run one after the other in the same wave and share its registers).
//
// The test runs RADV with RADV_DEBUG=nonggc (meson.build): NGG culling prepends 150-200 instructions of
// primitive culling to every vertex or tessellation evaluation shader that rasterises triangles (a driver
// optimisation that other GPUs do in fixed function, not a cost of the shader), which would rank a 17-instruction
// fullscreen-triangle vertex shader (227 with culling) above most compute kernels.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "calibration_corpus.h"
#include "radv_device.h"
#include "rank_correlation.h"
#include "statistics_fixture.h"

namespace crashtest::test {
namespace {

struct Sample {
  std::string label;  // the files of the stages the executable covers
  uint64_t registers = 0, demand = 0, instructions = 0;  // ours on amd-rdna2
  uint64_t vgprs = 0, acoInstructions = 0;               // RADV's
};

struct SampleSet {
  std::vector<Sample> samples;

  void Add(const Sample& s) {
    std::printf("%-56s registers %4llu (demand %4llu) VGPRs %4llu | instructions %5llu Instructions %5llu\n",
                s.label.c_str(), static_cast<unsigned long long>(s.registers),
                static_cast<unsigned long long>(s.demand), static_cast<unsigned long long>(s.vgprs),
                static_cast<unsigned long long>(s.instructions),
                static_cast<unsigned long long>(s.acoInstructions));
    samples.push_back(s);
  }
  void Append(const SampleSet& other) { samples.insert(samples.end(), other.samples.begin(), other.samples.end()); }
  std::vector<double> Column(uint64_t Sample::*member) const {
    std::vector<double> v;
    for (const Sample& s : samples) v.push_back(static_cast<double>(s.*member));
    return v;
  }
  double Registers() const { return Spearman(Column(&Sample::registers), Column(&Sample::vgprs)); }
  double Demand() const { return Spearman(Column(&Sample::demand), Column(&Sample::vgprs)); }
  double Instructions() const {
    return Spearman(Column(&Sample::instructions), Column(&Sample::acoInstructions));
  }
  void Print(const char* what) const {
    std::printf("Spearman over %zu %s: registers/VGPRs %.3f (demand/VGPRs %.3f), instructions/Instructions %.3f\n",
                samples.size(), what, Registers(), Demand(), Instructions());
  }
};

bool HasAcoFigures(const RadvExecutable& e) {
  return e.statistics.contains("VGPRs") && e.statistics.contains("Instructions");
}

SampleSet ComputeSamples(Radv& radv, const std::map<std::string, CorpusEntry>& corpus) {
  SampleSet set;
  for (const auto& [file, entry] : corpus) {
    if (entry.stage != "comp") continue;
    std::vector<RadvExecutable> executables = radv.Compute(entry);
    if (executables.empty() || !HasAcoFigures(executables[0])) {
      std::printf("skipped %s: RADV did not compile it\n", file.c_str());
      continue;
    }
    statistics::ShaderStatistics ours = StatsOf(file, "amd-rdna2");
    set.Add({file, ours.registersAllocated, ours.registerDemand, ours.instructions,
             executables[0].statistics.at("VGPRs"), executables[0].statistics.at("Instructions")});
  }
  return set;
}

SampleSet GraphicsSamples(Radv& radv, const std::map<std::string, CorpusEntry>& corpus) {
  SampleSet set;
  for (const GraphicsRecipe& recipe : GraphicsRecipes()) {
    VkShaderStageFlags measured = 0;
    std::string pipelineName;
    for (const auto& [stage, file] : recipe.stages) {
      if (!IsCompanion(file)) measured |= stage;
      pipelineName += (pipelineName.empty() ? "" : " ") + file;
    }
    std::vector<RadvExecutable> executables = radv.Graphics(recipe, corpus);
    if (executables.empty()) {
      std::printf("skipped pipeline %s: RADV did not create it\n", pipelineName.c_str());
      continue;
    }
    std::printf("RADV executables of %s:", pipelineName.c_str());
    for (const RadvExecutable& e : executables) std::printf(" \"%s\" (stages 0x%x)", e.name.c_str(), e.stages);
    std::printf("\n");
    for (const RadvExecutable& e : executables) {
      if ((e.stages & measured) == 0 || !HasAcoFigures(e)) continue;
      Sample sample;
      for (const auto& [stage, file] : recipe.stages) {
        if ((e.stages & stage) == 0) continue;
        statistics::ShaderStatistics ours = StatsOf(file, "amd-rdna2", stage);
        sample.label += (sample.label.empty() ? "" : "+") + file;
        sample.registers = std::max(sample.registers, ours.registersAllocated);
        sample.demand = std::max(sample.demand, ours.registerDemand);
        sample.instructions += ours.instructions;
      }
      sample.vgprs = e.statistics.at("VGPRs");
      sample.acoInstructions = e.statistics.at("Instructions");
      set.Add(sample);
    }
  }
  return set;
}

TEST(RadvCalibration, EveryGraphicsShaderHasAPipeline) {
  std::set<std::string> covered;
  for (const GraphicsRecipe& recipe : GraphicsRecipes())
    for (const auto& [stage, file] : recipe.stages) covered.insert(file);
  size_t graphics = 0;
  for (const auto& [file, entry] : ReadCalibrationCorpus()) {
    if (entry.stage == "comp") continue;
    ++graphics;
    EXPECT_TRUE(covered.contains(file)) << file << " is in no pipeline of GraphicsRecipes(): add one";
  }
  EXPECT_GE(graphics, 18u);
}

TEST(RadvCalibration, RanksAgreeWithAco) {
  const char* icd = std::getenv("VK_ICD_FILENAMES");
  if (icd == nullptr || !std::filesystem::exists(icd))
    GTEST_SKIP() << "RADV is not installed (" << (icd ? icd : "VK_ICD_FILENAMES unset")
                 << " missing): install mesa-vulkan-drivers to calibrate against ACO";
  Radv radv;
  if (std::string error = radv.Open(); !error.empty()) GTEST_SKIP() << "RADV unusable here: " << error;
  const std::map<std::string, CorpusEntry> corpus = ReadCalibrationCorpus();
  SampleSet compute = ComputeSamples(radv, corpus);
  SampleSet graphics = GraphicsSamples(radv, corpus);
  SampleSet all = compute;
  all.Append(graphics);
  ASSERT_GE(compute.samples.size(), 30u) << "too few compute shaders compiled by RADV to calibrate";
  ASSERT_GE(graphics.samples.size(), 16u) << "too few graphics executables compiled by RADV to calibrate";
  compute.Print("compute shaders");
  graphics.Print("graphics executables");
  all.Print("corpus samples (compute and graphics)");
  // The bar: over the whole corpus.
  EXPECT_GE(all.Registers(), 0.8);
  EXPECT_GE(all.Instructions(), 0.8);
}

TEST(RadvCalibration, SpearmanOfKnownRanks) {
  EXPECT_DOUBLE_EQ(Spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(Spearman({1, 2, 3, 4}, {40, 30, 20, 10}), -1.0);
  EXPECT_NEAR(Spearman({1, 2, 2, 3}, {1, 2, 3, 4}), 0.9486832980505138, 1e-12);  // ties share a rank
  EXPECT_DOUBLE_EQ(Spearman({1, 1, 1}, {1, 2, 3}), 0.0);  // a constant side has no ranks to agree with
}

}  // namespace
}  // namespace crashtest::test

// Calibration against a real compiler (issue [statistics]): Mesa's RADV compiles for an AMD GPU without one when
// RADV_FORCE_FAMILY=navi21 is set, and reports ACO's statistics through VK_KHR_pipeline_executable_properties.
// Over the whole corpus (compute and graphics shaders), our statistics on the amd-rdna2 model in the radv dialect
// are compared name for name with RADV's: the rank correlation (Spearman) of "VGPRs" must be at least 0.95 and of
// "Instructions" at least 0.85, and our "Scratch size" must be zero wherever RADV's is; "SGPRs" and "Code size"
// are printed. Skips with a message when RADV is not installed (CI installs mesa-vulkan-drivers).
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
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "calibration_corpus.h"
#include "radv_device.h"
#include "rank_correlation.h"
#include "statistics/statistic_table.h"
#include "statistics_fixture.h"
#include "test_shaders.h"

namespace crashtest::test {
namespace {

// The statistics compared name for name: ours in the radv dialect on amd-rdna2 against RADV's own.
const char* const kCompared[] = {"VGPRs", "SGPRs", "Instructions", "Code size", "Scratch size"};

struct Sample {
  std::string label;                     // the files of the stages the executable covers
  std::map<std::string, uint64_t> ours;  // radv dialect, amd-rdna2
  std::map<std::string, uint64_t> radv;  // RADV's

  // Merged stages run one after the other in one wave: registers and scratch are the largest stage's,
  // instructions and code add up.
  void AddOurs(const statistics::ShaderStatistics& stats) {
    for (const statistics::StatisticValue& v : statistics::ListStatistics(stats, StatisticDialect::Radv)) {
      std::string name(v.descriptor->name);
      uint64_t& mine = ours[name];
      if (name == "Instructions" || name == "Code size") mine += v.value.u64;
      else mine = std::max(mine, v.value.u64);
    }
  }
};

struct SampleSet {
  std::vector<Sample> samples;

  void Add(const Sample& s) {
    std::printf("%-56s", s.label.c_str());
    for (const char* name : kCompared)
      std::printf(" | %s %llu/%llu", name, static_cast<unsigned long long>(s.ours.at(name)),
                  static_cast<unsigned long long>(s.radv.at(name)));
    std::printf("\n");
    samples.push_back(s);
  }
  void Append(const SampleSet& other) { samples.insert(samples.end(), other.samples.begin(), other.samples.end()); }
  double Correlation(const std::string& name) const {
    std::vector<double> a, b;
    for (const Sample& s : samples) {
      a.push_back(static_cast<double>(s.ours.at(name)));
      b.push_back(static_cast<double>(s.radv.at(name)));
    }
    return Spearman(a, b);
  }
  // Samples where RADV's scratch is zero, and how many of them have zero scratch in ours too.
  std::pair<size_t, size_t> ScratchZeroAgreement() const {
    size_t radvZero = 0, bothZero = 0;
    for (const Sample& s : samples)
      if (s.radv.at("Scratch size") == 0) {
        ++radvZero;
        bothZero += s.ours.at("Scratch size") == 0;
      }
    return {radvZero, bothZero};
  }
  void Print(const char* what) const {
    auto [radvZero, bothZero] = ScratchZeroAgreement();
    std::printf("Spearman over %zu %s: VGPRs %.3f, SGPRs %.3f, Instructions %.3f, Code size %.3f; scratch zero "
                "where RADV's is: %zu of %zu\n",
                samples.size(), what, Correlation("VGPRs"), Correlation("SGPRs"), Correlation("Instructions"),
                Correlation("Code size"), bothZero, radvZero);
  }
};

bool HasAcoFigures(const RadvExecutable& e) {
  for (const char* name : kCompared)
    if (!e.statistics.contains(name)) return false;
  return true;
}

std::map<std::string, uint64_t> RadvFigures(const RadvExecutable& e) {
  std::map<std::string, uint64_t> figures;
  for (const char* name : kCompared) figures[name] = e.statistics.at(name);
  return figures;
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
    Sample sample;
    sample.label = file;
    sample.AddOurs(StatsOf(entry.file, "amd-rdna2"));
    sample.radv = RadvFigures(executables[0]);
    set.Add(sample);
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
        sample.AddOurs(StatsOf(file, "amd-rdna2", stage));
        sample.label += (sample.label.empty() ? "" : "+") + file;
      }
      sample.radv = RadvFigures(e);
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
  // Name for name in the radv dialect. The targets are 0.95 (VGPRs) and 0.85 (Instructions), met with
  // Debian's Mesa 22.3.6: VGPRs 0.951, Instructions 0.885 once the statistics see the shader as the back end does
  // (back_end_view.h; docs/statistics.md, "Calibration against RADV", has each rule's share), so a change that
  // ranks worse fails. Scratch is zero wherever RADV's is.
  EXPECT_GE(all.Correlation("VGPRs"), 0.95);
  EXPECT_GE(all.Correlation("Instructions"), 0.86);
  auto [radvZero, bothZero] = all.ScratchZeroAgreement();
  EXPECT_EQ(bothZero, radvZero);
}

// SPIR-V extensions a module declares (OpExtension) that are not core in Vulkan 1.3: the calibration's RADV device
// enables no device extension, and a shader needing one is invalid there (ACO aborts on float atomics).
std::vector<std::string> ExtensionsBeyondVulkan13(const std::vector<uint32_t>& words) {
  static const std::set<std::string> kCore = {
      "SPV_KHR_storage_buffer_storage_class", "SPV_KHR_variable_pointers", "SPV_KHR_16bit_storage",
      "SPV_KHR_shader_draw_parameters", "SPV_KHR_device_group", "SPV_KHR_multiview", "SPV_KHR_8bit_storage",
      "SPV_KHR_float_controls", "SPV_EXT_descriptor_indexing", "SPV_KHR_physical_storage_buffer",
      "SPV_KHR_vulkan_memory_model", "SPV_EXT_shader_viewport_index_layer", "SPV_KHR_integer_dot_product",
      "SPV_KHR_terminate_invocation", "SPV_EXT_demote_to_helper_invocation", "SPV_KHR_non_semantic_info"};
  std::vector<std::string> beyond;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
    if (count == 0 || i + count > words.size()) break;
    if (opcode == 10) {  // OpExtension "name"
      std::string name(reinterpret_cast<const char*>(&words[i + 1]), (count - 1) * 4);
      name.resize(name.find('\0') == std::string::npos ? name.size() : name.find('\0'));
      if (!kCore.contains(name)) beyond.push_back(name);
    }
    i += count;
  }
  return beyond;
}

// The hold-out: every compute shader of the other suites (execution, fault, pipeline: written to test execution,
// faults and the compiler's passes), none of which the model was calibrated on, by the same comparison. The issue
// checks the model on a corpus the project has not seen; this is the nearest the project can come to that, so
// the figures say how far the rules carry beyond the shaders they were found on.
TEST(RadvCalibration, RanksHoldOnShadersItWasNotCalibratedOn) {
  const char* icd = std::getenv("VK_ICD_FILENAMES");
  if (icd == nullptr || !std::filesystem::exists(icd))
    GTEST_SKIP() << "RADV is not installed (" << (icd ? icd : "VK_ICD_FILENAMES unset") << " missing)";
  Radv radv;
  if (std::string error = radv.Open(); !error.empty()) GTEST_SKIP() << "RADV unusable here: " << error;
  const std::map<std::string, CorpusEntry> corpus = ReadCalibrationCorpus();
  std::vector<std::string> directories;
  std::istringstream dirs(CRASHTEST_HOLDOUT_DIRS);
  for (std::string dir; std::getline(dirs, dir, ':');) directories.push_back(dir);
  std::map<std::string, CorpusEntry> holdout;
  for (auto [file, entry] : ReadCalibrationCorpus(CRASHTEST_HOLDOUT_MANIFEST)) {
    if (entry.stage != "comp" || corpus.contains(file)) continue;  // the suites' copies of corpus shaders
    // ir_fold divides by constant zero and INT_MIN by -1 on purpose (what the folder must leave alone); Mesa
    // 22.3's constant folding executes the division and the process dies of SIGFPE.
    if (file == "ir_fold.comp.spv") continue;
    for (const std::string& dir : directories)
      if (std::filesystem::exists(dir + "/" + file)) {
        entry.file = dir + "/" + file;
        break;
      }
    ASSERT_EQ(entry.file.front(), '/') << file << " is in none of " << CRASHTEST_HOLDOUT_DIRS;
    if (std::vector<std::string> beyond = ExtensionsBeyondVulkan13(CorpusWords(entry.file)); !beyond.empty()) {
      std::printf("skipped %s: needs %s, a device extension\n", file.c_str(), beyond.front().c_str());
      continue;
    }
    holdout.emplace(file, entry);
  }
  SampleSet held = ComputeSamples(radv, holdout);
  ASSERT_GE(held.samples.size(), 30u) << "too few hold-out shaders compiled by RADV";
  held.Print("hold-out compute shaders");
  // Bars below the figures measured when the hold-out was introduced (docs/statistics.md, "The hold-out"), so a
  // rule that only fits the corpus and ranks these worse fails.
  EXPECT_GE(held.Correlation("VGPRs"), 0.91);  // 0.903 when introduced, 0.916 with stores that cannot alias
  EXPECT_GE(held.Correlation("Instructions"), 0.91);  // 0.920
  auto [radvZero, bothZero] = held.ScratchZeroAgreement();
  EXPECT_EQ(bothZero, radvZero);
}

TEST(RadvCalibration, SpearmanOfKnownRanks) {
  EXPECT_DOUBLE_EQ(Spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(Spearman({1, 2, 3, 4}, {40, 30, 20, 10}), -1.0);
  EXPECT_NEAR(Spearman({1, 2, 2, 3}, {1, 2, 3, 4}), 0.9486832980505138, 1e-12);  // ties share a rank
  EXPECT_DOUBLE_EQ(Spearman({1, 1, 1}, {1, 2, 3}), 0.0);  // a constant side has no ranks to agree with
}

}  // namespace
}  // namespace crashtest::test

// Calibration against a real compiler (issue [statistics]): Mesa's RADV compiles for an AMD GPU without one when
// RADV_FORCE_FAMILY=navi21 is set, and reports ACO's statistics through VK_KHR_pipeline_executable_properties.
// Over the compute shaders of the corpus, the rank correlation (Spearman) between our figures on the amd-rdna2
// model and RADV's must be at least 0.8: registers against "VGPRs", instructions against "Instructions".
// Skips with a message when RADV is not installed (CI installs mesa-vulkan-drivers).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "statistics_fixture.h"
#include "test_shaders.h"

namespace crashtest::test {
namespace {

struct CorpusEntry {
  std::string file;
  std::string stage;
  std::vector<VkDescriptorSetLayoutBinding> bindings[4];
  uint32_t pushConstantBytes = 0;
};

bool DescriptorType(const std::string& name, VkDescriptorType& type) {
  static const std::map<std::string, VkDescriptorType> kTypes = {
      {"storage_buffer", VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
      {"uniform_buffer", VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
      {"storage_image", VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
      {"sampled_image", VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE},
      {"sampler", VK_DESCRIPTOR_TYPE_SAMPLER},
      {"combined_image_sampler", VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER},
      {"storage_texel_buffer", VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER},
      {"uniform_texel_buffer", VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER},
  };
  auto it = kTypes.find(name);
  if (it == kTypes.end()) return false;
  type = it->second;
  return true;
}

// corpus.txt lines: "file stage tags bindings=set.binding:type[count],... ... push_constants=bytes ...".
std::vector<CorpusEntry> ComputeCorpus() {
  std::ifstream file(std::string(CRASHTEST_SHADER_CORPUS_DIR) + "/corpus.txt");
  std::vector<CorpusEntry> entries;
  for (std::string line; std::getline(file, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    CorpusEntry entry;
    std::string tags, field;
    fields >> entry.file >> entry.stage >> tags;
    if (entry.stage != "comp") continue;
    bool ok = true;
    while (fields >> field) {
      if (field.rfind("push_constants=", 0) == 0) entry.pushConstantBytes = std::stoul(field.substr(15));
      if (field.rfind("bindings=", 0) != 0 || field == "bindings=-") continue;
      std::istringstream items(field.substr(9));
      for (std::string item; std::getline(items, item, ',');) {
        uint32_t set = 0, binding = 0, count = 1;
        char type[64] = {};
        if (std::sscanf(item.c_str(), "%u.%u:%63[a-z_]", &set, &binding, type) != 3 || set >= 4) {
          ok = false;
          continue;
        }
        if (auto bracket = item.find('['); bracket != std::string::npos) count = std::stoul(item.substr(bracket + 1));
        VkDescriptorSetLayoutBinding b{};
        b.binding = binding;
        b.descriptorCount = count;
        b.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        ok &= DescriptorType(type, b.descriptorType);
        entry.bindings[set].push_back(b);
      }
    }
    if (ok) entries.push_back(entry);
  }
  return entries;
}

// Average ranks (ties share their mean rank), then Pearson over the ranks.
double Spearman(const std::vector<double>& x, const std::vector<double>& y) {
  auto ranks = [](const std::vector<double>& v) {
    std::vector<size_t> order(v.size());
    for (size_t i = 0; i < v.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> rank(v.size());
    for (size_t i = 0; i < order.size();) {
      size_t j = i;
      while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
      for (size_t k = i; k <= j; ++k) rank[order[k]] = (static_cast<double>(i) + static_cast<double>(j)) / 2.0;
      i = j + 1;
    }
    return rank;
  };
  std::vector<double> rx = ranks(x), ry = ranks(y);
  double mx = 0, my = 0;
  for (size_t i = 0; i < rx.size(); ++i) {
    mx += rx[i];
    my += ry[i];
  }
  mx /= static_cast<double>(rx.size());
  my /= static_cast<double>(ry.size());
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < rx.size(); ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  return sxx == 0 || syy == 0 ? 0.0 : sxy / std::sqrt(sxx * syy);
}

class Radv {
 public:
  ~Radv() {
    if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
  }

  std::string Open() {
    // Keep Mesa's driver mapped after the loader unloads it: otherwise LeakSanitizer reports the memory its
    // globals still reference (128 bytes, "<unknown module>") as leaked once the mapping is gone.
    dlopen("libvulkan_radeon.so", RTLD_NOW | RTLD_NODELETE);
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, "radv-calibration", 1, nullptr, 0,
                          VK_API_VERSION_1_3};
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, nullptr, 0, &app, 0, nullptr, 0, nullptr};
    if (vkCreateInstance(&info, nullptr, &instance_) != VK_SUCCESS) return "vkCreateInstance failed";
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_, &count, devices.data());
    for (VkPhysicalDevice d : devices) {
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(d, &p);
      if (std::strstr(p.deviceName, "RADV") != nullptr) physical_ = d;
    }
    if (physical_ == VK_NULL_HANDLE) return "no RADV device";
    // Every feature the device has (the corpus uses 64-bit and 16-bit types, atomics, subgroup operations, BDA).
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR, nullptr, VK_TRUE};
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &executable};
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
    VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11, {}};
    vkGetPhysicalDeviceFeatures2(physical_, &features);
    executable.pipelineExecutableInfo = VK_TRUE;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
    const char* extensions[] = {VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME};
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features, 0, 1, &queue, 0, nullptr, 1,
                                  extensions, nullptr};
    if (vkCreateDevice(physical_, &deviceInfo, nullptr, &device_) != VK_SUCCESS) return "vkCreateDevice failed";
    getStatistics_ = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(device_, "vkGetPipelineExecutableStatisticsKHR"));
    return getStatistics_ == nullptr ? "no vkGetPipelineExecutableStatisticsKHR" : "";
  }

  // RADV's statistics of the compute pipeline, by name; empty if the pipeline could not be created.
  std::map<std::string, uint64_t> Statistics(const CorpusEntry& entry) {
    std::map<std::string, uint64_t> result;
    std::vector<uint32_t> words = CorpusWords(entry.file);
    std::vector<VkDescriptorSetLayout> setLayouts;
    uint32_t setCount = 0;
    for (uint32_t s = 0; s < 4; ++s)
      if (!entry.bindings[s].empty()) setCount = s + 1;
    for (uint32_t s = 0; s < setCount; ++s) {
      VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0,
                                           static_cast<uint32_t>(entry.bindings[s].size()),
                                           entry.bindings[s].data()};
      VkDescriptorSetLayout layout = VK_NULL_HANDLE;
      vkCreateDescriptorSetLayout(device_, &info, nullptr, &layout);
      setLayouts.push_back(layout);
    }
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, entry.pushConstantBytes};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, setCount,
                                          setLayouts.data(), entry.pushConstantBytes != 0 ? 1u : 0u, &range};
    VkPipelineLayout layout = VK_NULL_HANDLE;
    vkCreatePipelineLayout(device_, &layoutInfo, nullptr, &layout);
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, words.size() * 4,
                                        words.data()};
    VkShaderModule module = VK_NULL_HANDLE;
    vkCreateShaderModule(device_, &moduleInfo, nullptr, &module);
    VkComputePipelineCreateInfo pipelineInfo{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, nullptr,
                                             VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, {}, layout,
                                             VK_NULL_HANDLE, -1};
    pipelineInfo.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0,
                          VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
    VkPipeline pipeline = VK_NULL_HANDLE;
    if (vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &pipeline) == VK_SUCCESS) {
      VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr, pipeline, 0};
      uint32_t count = 0;
      getStatistics_(device_, &executable, &count, nullptr);
      std::vector<VkPipelineExecutableStatisticKHR> stats(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
      getStatistics_(device_, &executable, &count, stats.data());
      for (const auto& s : stats) result[s.name] = s.value.u64;
      vkDestroyPipeline(device_, pipeline, nullptr);
    }
    vkDestroyShaderModule(device_, module, nullptr);
    vkDestroyPipelineLayout(device_, layout, nullptr);
    for (VkDescriptorSetLayout l : setLayouts) vkDestroyDescriptorSetLayout(device_, l, nullptr);
    return result;
  }

 private:
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  PFN_vkGetPipelineExecutableStatisticsKHR getStatistics_ = nullptr;
};

TEST(RadvCalibration, RanksAgreeWithAco) {
  const char* icd = std::getenv("VK_ICD_FILENAMES");
  if (icd == nullptr || !std::filesystem::exists(icd))
    GTEST_SKIP() << "RADV is not installed (" << (icd ? icd : "VK_ICD_FILENAMES unset")
                 << " missing): install mesa-vulkan-drivers to calibrate against ACO";
  Radv radv;
  if (std::string error = radv.Open(); !error.empty()) GTEST_SKIP() << "RADV unusable here: " << error;
  std::vector<double> ourRegisters, ourDemand, radvVgprs, ourInstructions, radvInstructions;
  for (const CorpusEntry& entry : ComputeCorpus()) {
    std::map<std::string, uint64_t> aco = radv.Statistics(entry);
    if (!aco.contains("VGPRs") || !aco.contains("Instructions")) {
      std::printf("skipped %s: RADV did not compile it\n", entry.file.c_str());
      continue;
    }
    statistics::ShaderStatistics ours = StatsOf(entry.file, "amd-rdna2");
    std::printf("%-36s registers %4llu (demand %4llu) VGPRs %4llu | instructions %5llu Instructions %5llu\n",
                entry.file.c_str(), static_cast<unsigned long long>(ours.registersAllocated),
                static_cast<unsigned long long>(ours.registerDemand),
                static_cast<unsigned long long>(aco["VGPRs"]), static_cast<unsigned long long>(ours.instructions),
                static_cast<unsigned long long>(aco["Instructions"]));
    ourRegisters.push_back(static_cast<double>(ours.registersAllocated));
    ourDemand.push_back(static_cast<double>(ours.registerDemand));
    radvVgprs.push_back(static_cast<double>(aco["VGPRs"]));
    ourInstructions.push_back(static_cast<double>(ours.instructions));
    radvInstructions.push_back(static_cast<double>(aco["Instructions"]));
  }
  ASSERT_GE(radvVgprs.size(), 30u) << "too few shaders compiled by RADV to calibrate";
  double registers = Spearman(ourRegisters, radvVgprs);
  double demand = Spearman(ourDemand, radvVgprs);
  double instructions = Spearman(ourInstructions, radvInstructions);
  std::printf("Spearman over %zu compute shaders: registers/VGPRs %.3f (demand/VGPRs %.3f), "
              "instructions/Instructions %.3f\n",
              radvVgprs.size(), registers, demand, instructions);
  EXPECT_GE(registers, 0.8);
  EXPECT_GE(instructions, 0.8);
}

TEST(RadvCalibration, SpearmanOfKnownRanks) {
  EXPECT_DOUBLE_EQ(Spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(Spearman({1, 2, 3, 4}, {40, 30, 20, 10}), -1.0);
  EXPECT_NEAR(Spearman({1, 2, 2, 3}, {1, 2, 3, 4}), 0.9486832980505138, 1e-12);  // ties share a rank
}

}  // namespace
}  // namespace crashtest::test

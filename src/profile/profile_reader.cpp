#include "profile/profile_reader.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>
#include <vector>

#include "device/driver_capabilities.h"
#include "profile/closest_name.h"
#include "profile/extension_requirements_types.h"
#include "profile/crashtest_key.h"
#include "profile/default_identity.h"
#include "profile/description_access.h"
#include "profile/fast_formats.h"
#include "profile/json_file.h"
#include "profile/read_context.h"
#include "profile/required_limits.h"
#include "profile/struct_json_reader.h"
#include "profile/struct_table.h"

namespace crashtest {
namespace {

std::string Quoted(std::string_view s) { return '"' + std::string(s) + '"'; }

// The registry the struct and extension tables come from, e.g. "1.3.239".
std::string RegistryVersion() {
  return std::to_string(VK_API_VERSION_MAJOR(VK_HEADER_VERSION_COMPLETE)) + "." +
         std::to_string(VK_API_VERSION_MINOR(VK_HEADER_VERSION_COMPLETE)) + "." + std::to_string(VK_HEADER_VERSION);
}

class ProfileReader {
 public:
  ProfileReader(const ReadContext& ctx, const KeyOrder& order, const FormatsFastPath& preRead,
                DeviceDescription& out)
      : ctx_(ctx), order_(order), preRead_(preRead), out_(out) {}

  bool Read(const Json& root, const std::string& profileName);

 private:
  // The capability blocks to merge, in order, with their JSON paths.
  bool SelectBlocks(const Json& root, const std::string& profileName,
                    std::vector<std::pair<const Json*, std::string>>& blocks);
  void ReadBlock(const Json& block, const std::string& path);
  void ReadExtensions(const Json& extensions, const std::string& path);
  void CheckExtensionName(const std::string& name, const std::string& path);
  void ReadStructs(const Json& structs, const std::string& path, StructRole role);
  void ReadFormats(const Json& formats, const std::string& path);
  void ReadQueueFamilies(const Json& families, const std::string& path);
  const StructInfo* LookUpStruct(const std::string& name, const std::string& path);
  void AddImpliedStructs();
  void MakeAggregatesConsistent();
  std::string IdentityName() const;

  // Member names of an object of the file in the file's order.
  std::vector<std::string> InFileOrder(const std::string& section, const Json& object) const;

  const ReadContext& ctx_;
  const KeyOrder& order_;
  const FormatsFastPath& preRead_;  // "formats" objects the parser already read
  DeviceDescription& out_;
  GivenMembers given_;
  std::optional<uint32_t> profileApiVersion_;
  std::map<std::string, uint32_t> extensions_;
  bool queueFamiliesGiven_ = false;
  std::set<std::string> unknownStructs_;
  std::set<std::string> unknownExtensions_;
};

const StructInfo* ProfileReader::LookUpStruct(const std::string& name, const std::string& path) {
  const StructInfo* info = FindStruct(name);
  if (info != nullptr) return info;
  // Exports repeat such a struct for every format; one message (at its first place) is enough.
  if (!unknownStructs_.insert(name).second) return nullptr;
  // Real profiles carry structs of Vulkan versions newer than the installed headers: skip them, say so.
  std::string_view best = ClosestName(name, [](const auto& visit) {
    for (const StructInfo& s : AllStructs()) visit(s.name);
  });
  ctx_.Unknown(path, "unknown struct " + name + " (not in the Vulkan " + RegistryVersion() +
                         " registry; closest known: " + std::string(best) + "); skipped wherever it appears");
  return nullptr;
}

std::vector<std::string> ProfileReader::InFileOrder(const std::string& section, const Json& object) const {
  auto it = order_.members.find(section);
  if (it != order_.members.end() && it->second.size() == object.size()) return it->second;
  std::vector<std::string> keys;  // no record (or duplicate keys): sorted order
  for (auto m = object.begin(); m != object.end(); ++m) keys.push_back(m.key());
  return keys;
}

bool ProfileReader::SelectBlocks(const Json& root, const std::string& profileName,
                                 std::vector<std::pair<const Json*, std::string>>& blocks) {
  auto caps = root.find("capabilities");
  if (caps == root.end() || !caps->is_object()) {
    ctx_.Error("capabilities", caps == root.end() ? "missing; expected an object of capability blocks"
                                                  : "expected an object of capability blocks, got " +
                                                        DescribeJson(*caps));
    return false;
  }
  auto profiles = root.find("profiles");
  bool hasProfiles = profiles != root.end() && profiles->is_object() && !profiles->empty();
  if (profiles != root.end() && !profiles->is_object()) {
    ctx_.Error("profiles", "expected an object of profiles, got " + DescribeJson(*profiles));
    return false;
  }
  if (!hasProfiles) {
    if (!profileName.empty()) {
      ctx_.Error("profiles", "no profile " + Quoted(profileName) + " (the file has no \"profiles\" section)");
      return false;
    }
    for (const std::string& name : InFileOrder("capabilities", *caps))
      blocks.emplace_back(&(*caps)[name], JoinPath("capabilities", name));
    return true;
  }
  auto selected = profiles->find(InFileOrder("profiles", *profiles).front());
  if (!profileName.empty()) {
    selected = profiles->find(profileName);
    if (selected == profiles->end()) {
      std::string available;
      for (const std::string& name : InFileOrder("profiles", *profiles))
        available += (available.empty() ? "" : ", ") + name;
      ctx_.Error("profiles", "no profile " + Quoted(profileName) + " (available: " + available + ")");
      return false;
    }
  }
  const std::string profilePath = JoinPath("profiles", selected.key());
  out_.profileName = selected.key();
  const Json& entry = selected.value();
  if (!entry.is_object()) {
    ctx_.Error(profilePath, "expected an object, got " + DescribeJson(entry));
    return false;
  }
  if (auto api = entry.find("api-version"); api != entry.end()) {
    std::optional<uint32_t> v = api->is_string() ? ParseVersionString(api->get_ref<const std::string&>())
                                                 : std::nullopt;
    if (!v) {
      ctx_.Error(JoinPath(profilePath, "api-version"), "expected a version \"major.minor.patch\", got " +
                                                           DescribeJson(*api));
      return false;
    }
    profileApiVersion_ = v;
  }
  auto names = entry.find("capabilities");
  if (names == entry.end() || !names->is_array()) {
    ctx_.Error(JoinPath(profilePath, "capabilities"), "expected an array of capability block names");
    return false;
  }
  bool ok = true;
  for (std::size_t i = 0; i < names->size(); ++i) {
    const Json* name = &(*names)[i];
    std::string namePath = IndexPath(JoinPath(profilePath, "capabilities"), i);
    // An array of alternatives: any one is enough, the first is the one we emulate.
    if (name->is_array() && !name->empty()) {
      name = &(*name)[0];
      namePath = IndexPath(namePath, 0);
    }
    if (!name->is_string()) {
      ctx_.Error(namePath, "expected a capability block name, got " + DescribeJson(*name));
      ok = false;
      continue;
    }
    auto block = caps->find(name->get<std::string>());
    if (block == caps->end()) {
      ctx_.Error(namePath, "no capability block " + Quoted(name->get<std::string>()) + " in \"capabilities\"");
      ok = false;
      continue;
    }
    blocks.emplace_back(&block.value(), JoinPath("capabilities", block.key()));
  }
  return ok;
}

void ProfileReader::ReadExtensions(const Json& extensions, const std::string& path) {
  if (!extensions.is_object()) {
    ctx_.Error(path, "expected an object {extension name: spec version}, got " + DescribeJson(extensions));
    return;
  }
  for (auto it = extensions.begin(); it != extensions.end(); ++it) {
    const std::string extPath = JoinPath(path, it.key());
    if (it.key().size() >= VK_MAX_EXTENSION_NAME_SIZE) {
      ctx_.Error(extPath, "extension name longer than " + std::to_string(VK_MAX_EXTENSION_NAME_SIZE - 1) +
                              " bytes");
      continue;
    }
    const Json& v = it.value();
    if (!v.is_number_unsigned() || v.get<uint64_t>() > UINT32_MAX) {
      ctx_.Error(extPath, "expected a spec version (an unsigned 32-bit integer), got " + DescribeJson(v));
      continue;
    }
    extensions_[it.key()] = v.get<uint32_t>();
    CheckExtensionName(it.key(), extPath);
  }
}

// A misspelt extension name would otherwise just be dropped as "not implemented" and the device would silently
// lack it; a name from a Vulkan newer than the installed registry is legitimate in real exports. Either way:
// warn (an error under --strict) and suggest the closest known name.
void ProfileReader::CheckExtensionName(const std::string& name, const std::string& path) {
  if (FindExtensionRequirements(name) != nullptr || Driver().ImplementsExtension(name)) return;
  if (!unknownExtensions_.insert(name).second) return;
  std::string_view best = ClosestName(name, [](const auto& visit) {
    for (const ExtensionRequirements& e : AllExtensionRequirements())
      if (e.device) visit(e.name);
    for (const VkExtensionProperties& e : Driver().deviceExtensions) visit(e.extensionName);
  });
  const bool typo = !best.empty() && EditDistance(name, best) <= std::max<std::size_t>(2, name.size() / 8);
  ctx_.Unknown(path, "unknown extension " + name + " (not in the Vulkan " + RegistryVersion() + " registry; " +
                         (typo ? "did you mean " + std::string(best) + "?" : "closest known: " + std::string(best)) +
                         "); not advertised");
}

void ProfileReader::ReadStructs(const Json& structs, const std::string& path, StructRole role) {
  const char* what = role == StructRole::Features ? "features" : "properties";
  if (!structs.is_object()) {
    ctx_.Error(path, std::string("expected an object of ") + what + " structs, got " + DescribeJson(structs));
    return;
  }
  for (auto it = structs.begin(); it != structs.end(); ++it) {
    const std::string structPath = JoinPath(path, it.key());
    const StructInfo* info = LookUpStruct(it.key(), structPath);
    if (info == nullptr) continue;
    if (info->role != role) {
      ctx_.Error(structPath, std::string(info->name) + " is not a " + what +
                                 " struct (expected a struct that extends VkPhysicalDevice" +
                                 (role == StructRole::Features ? "Features2" : "Properties2") + ")");
      continue;
    }
    std::byte* dst = StructBytes(out_, *info, /*create=*/true);
    ReadStructJson(ctx_, *info, it.value(), dst, structPath, &given_);
  }
}

void ProfileReader::ReadFormats(const Json& formats, const std::string& path) {
  if (!formats.is_object()) {
    ctx_.Error(path, "expected an object {VK_FORMAT_...: format properties}, got " + DescribeJson(formats));
    return;
  }
  const StructInfo* props1 = FindStruct("VkFormatProperties");
  const StructInfo* props2 = FindStruct("VkFormatProperties2");
  const StructInfo* props3 = FindStruct("VkFormatProperties3");
  for (auto it = formats.begin(); it != formats.end(); ++it) {
    const std::string formatPath = JoinPath(path, it.key());
    std::optional<int64_t> format = FindEnumValue("VkFormat", it.key());
    if (!format) {
      const EnumTypeInfo* type = FindEnumType("VkFormat");
      std::string_view best = ClosestName(it.key(), [&](const auto& visit) {
        for (const EnumEntry& e : type->byName) visit(e.name);
      });
      ctx_.Unknown(formatPath, "unknown VkFormat " + Quoted(it.key()) + " (closest known: " + std::string(best) +
                                   "); skipped");
      continue;
    }
    if (!it.value().is_object()) {
      ctx_.Error(formatPath, "expected an object of format property structs, got " + DescribeJson(it.value()));
      continue;
    }
    VkFormatProperties p1{};
    VkFormatProperties2 p2{};
    VkFormatProperties3 p3{};
    bool have1 = false;
    bool have3 = false;
    for (auto s = it.value().begin(); s != it.value().end(); ++s) {
      const std::string structPath = JoinPath(formatPath, s.key());
      const StructInfo* info = LookUpStruct(s.key(), structPath);
      if (info == nullptr) continue;
      if (info == props1) {
        have1 |= ReadStructJson(ctx_, *info, s.value(), reinterpret_cast<std::byte*>(&p1), structPath, nullptr);
      } else if (info == props2) {
        if (ReadStructJson(ctx_, *info, s.value(), reinterpret_cast<std::byte*>(&p2), structPath, nullptr)) {
          p1 = p2.formatProperties;
          have1 = true;
        }
      } else if (info == props3) {
        have3 |= ReadStructJson(ctx_, *info, s.value(), reinterpret_cast<std::byte*>(&p3), structPath, nullptr);
      } else if (info->role != StructRole::FormatProperties) {
        ctx_.Error(structPath, std::string(info->name) + " is not a format properties struct");
      }
      // Other VkFormatProperties2 extensions (DRM modifiers, ...) are recognised but not emulated.
    }
    FormatSupport support;
    // VkFormatProperties3 carries the full 64-bit flags; the 32-bit VkFormatProperties bits are its low half.
    if (have3) {
      support = {p3.linearTilingFeatures, p3.optimalTilingFeatures, p3.bufferFeatures};
    } else if (have1) {
      support = {p1.linearTilingFeatures, p1.optimalTilingFeatures, p1.bufferFeatures};
    } else {
      continue;
    }
    out_.formats[static_cast<VkFormat>(*format)] = support;
  }
}

void ProfileReader::ReadQueueFamilies(const Json& families, const std::string& path) {
  if (!families.is_array()) {
    ctx_.Error(path, "expected an array of queue families, got " + DescribeJson(families));
    return;
  }
  const StructInfo* qfp = FindStruct("VkQueueFamilyProperties");
  const StructInfo* qfp2 = FindStruct("VkQueueFamilyProperties2");
  std::vector<VkQueueFamilyProperties> result;
  for (std::size_t i = 0; i < families.size(); ++i) {
    const std::string familyPath = IndexPath(path, i);
    const Json& family = families[i];
    if (!family.is_object()) {
      ctx_.Error(familyPath, "expected an object with a VkQueueFamilyProperties member, got " +
                                 DescribeJson(family));
      continue;
    }
    VkQueueFamilyProperties props{};
    VkQueueFamilyProperties2 props2{};
    bool found = false;
    std::string foundPath;
    const std::size_t errorsBefore = ctx_.diagnostics->Count(Severity::Error);
    for (auto s = family.begin(); s != family.end(); ++s) {
      const std::string structPath = JoinPath(familyPath, s.key());
      const StructInfo* info = LookUpStruct(s.key(), structPath);
      if (info == nullptr) continue;
      if (info == qfp) {
        if (ReadStructJson(ctx_, *info, s.value(), reinterpret_cast<std::byte*>(&props), structPath, nullptr)) {
          found = true;
          foundPath = JoinPath(structPath, "queueCount");
        }
      } else if (info == qfp2) {
        if (ReadStructJson(ctx_, *info, s.value(), reinterpret_cast<std::byte*>(&props2), structPath, nullptr)) {
          props = props2.queueFamilyProperties;
          found = true;
          foundPath = JoinPath(JoinPath(structPath, "queueFamilyProperties"), "queueCount");
        }
      } else if (info->role != StructRole::QueueFamilyProperties) {
        ctx_.Error(structPath, std::string(info->name) + " is not a queue family properties struct");
      }
    }
    if (!found) {
      if (ctx_.diagnostics->Count(Severity::Error) == errorsBefore)
        ctx_.Error(familyPath, "expected a VkQueueFamilyProperties member");
      continue;
    }
    // VkQueueFamilyProperties: "Each queue family must support at least one queue" (vkCreateDevice could
    // create none of them).
    if (props.queueCount == 0) {
      ctx_.Error(foundPath, "expected at least 1 (each queue family must support at least one queue), got 0");
      continue;
    }
    result.push_back(props);
  }
  // A device without queues can run nothing, and vkCreateDevice needs at least one VkDeviceQueueCreateInfo.
  if (families.empty())
    ctx_.Error(path, "expected at least one queue family, got an empty array (leave the member out for one "
                     "universal queue)");
  out_.queueFamilies = std::move(result);
  queueFamiliesGiven_ = true;
}

void ProfileReader::ReadBlock(const Json& blockIn, const std::string& pathIn) {
  const Json* block = &blockIn;
  std::string path = pathIn;
  // A block may be a list of alternatives; the first is the one we emulate.
  if (block->is_array() && !block->empty()) {
    block = &(*block)[0];
    path = IndexPath(path, 0);
  }
  if (!block->is_object()) {
    ctx_.Error(path, "expected a capability block object, got " + DescribeJson(*block));
    return;
  }
  for (auto it = block->begin(); it != block->end(); ++it) {
    const std::string keyPath = JoinPath(path, it.key());
    const std::string& key = it.key();
    if (key == "extensions") {
      ReadExtensions(it.value(), keyPath);
    } else if (key == "features") {
      ReadStructs(it.value(), keyPath, StructRole::Features);
    } else if (key == "properties") {
      ReadStructs(it.value(), keyPath, StructRole::Properties);
    } else if (key == "formats") {
      if (const PreReadFormats* formats = preRead_.Find(&it.value())) {
        for (const auto& [format, support] : *formats) out_.formats[format] = support;
      } else {
        ReadFormats(it.value(), keyPath);
      }
    } else if (key == "queueFamiliesProperties") {
      ReadQueueFamilies(it.value(), keyPath);
    } else if (key == "instanceExtensions") {
      // Instance extensions belong to the loader and the instance, not to an emulated physical device.
    } else {
      ctx_.Unknown(keyPath, "unknown capability section (expected extensions, features, properties, formats or "
                            "queueFamiliesProperties); skipped");
    }
  }
}

// Structs of the core versions up to apiVersion and of the advertised extensions that the profile omits are
// created zeroed, so that every struct an application may legally chain gets an answer.
void ProfileReader::AddImpliedStructs() {
  for (const StructInfo& s : AllStructs()) {
    if (!s.hasSType || (s.role != StructRole::Features && s.role != StructRole::Properties)) continue;
    if (s.ProvidedBy(out_.properties.apiVersion, out_.extensions)) StructBytes(out_, s, /*create=*/true);
  }
}

// Vulkan 1.2 made VkPhysicalDeviceVulkan11Features etc. report the same values as the individual structs:
// "VkPhysicalDeviceVulkan11Features ... members ... correspond to" the promoted structs' members. The aggregate
// wins when the profile gives both.
void ProfileReader::MakeAggregatesConsistent() {
  for (const MemberLinkInfo& link : AllMemberLinks()) {
    std::byte* individual = StructBytes(out_, *link.individual);
    std::byte* aggregate = StructBytes(out_, *link.aggregate);
    if (individual == nullptr || aggregate == nullptr) continue;
    const std::size_t size = MemberSize(*link.aggregateMember);
    std::byte* ind = individual + link.individualMember->offset;
    std::byte* agg = aggregate + link.aggregateMember->offset;
    if (given_.count(link.aggregateMember) != 0) {
      std::memcpy(ind, agg, size);
      given_.insert(link.individualMember);
    } else if (given_.count(link.individualMember) != 0) {
      std::memcpy(agg, ind, size);
      given_.insert(link.aggregateMember);
    }
  }
}

// The name a profile without identity goes by: its selected entry ("VP_KHR_roadmap_2022"), else the file's
// name without folder and extension, else the built-in name.
std::string ProfileReader::IdentityName() const {
  if (!out_.profileName.empty()) return out_.profileName;
  std::string name = out_.source;
  if (name.rfind("builtin:", 0) == 0) return name.substr(8);
  if (const std::size_t slash = name.find_last_of('/'); slash != std::string::npos) name = name.substr(slash + 1);
  if (const std::size_t dot = name.rfind('.'); dot != std::string::npos && dot != 0) name.resize(dot);
  return name;
}

bool ProfileReader::Read(const Json& root, const std::string& profileName) {
  if (!root.is_object()) {
    ctx_.Error("", "expected a Vulkan profile object, got " + DescribeJson(root));
    return false;
  }
  std::vector<std::pair<const Json*, std::string>> blocks;
  if (!SelectBlocks(root, profileName, blocks)) return false;
  for (const auto& [block, path] : blocks) ReadBlock(*block, path);

  for (const auto& [name, specVersion] : extensions_) {
    VkExtensionProperties e{};
    std::memcpy(e.extensionName, name.data(), name.size());
    e.specVersion = specVersion;
    out_.extensions.push_back(e);  // std::map iterates in name order: the list stays sorted
  }
  const StructInfo* props = FindStruct("VkPhysicalDeviceProperties");
  if (given_.count(props->FindMember("apiVersion")) == 0) {
    if (profileApiVersion_) {
      out_.properties.apiVersion = *profileApiVersion_;
    } else {
      out_.properties.apiVersion = VK_API_VERSION_1_0;
      ctx_.Warn("", "no apiVersion (expected capabilities.*.properties.VkPhysicalDeviceProperties.apiVersion or "
                    "a profile's \"api-version\"); assuming 1.0.0");
    }
  }
  if (!queueFamiliesGiven_) {
    // The spec requires at least one queue family; one universal queue is what a simple GPU offers.
    out_.queueFamilies.push_back({VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, 1, 64,
                                  {1, 1, 1}});
  }
  AddImpliedStructs();
  MakeAggregatesConsistent();

  ApplyDefaultIdentity(ctx_, given_, IdentityName(), out_);
  auto key = root.find("crashtest");
  ApplyCrashtestKey(ctx_, key == root.end() ? nullptr : &*key, given_, out_);
  // A limit no conformant device may report (Required Limits): a warning, an error under --strict. The driver's
  // own choices are fixed by the intersection instead (driver_intersection.cpp).
  for (const LimitProblem& problem : CheckRequiredLimits(out_, &given_)) ctx_.Doubtful(problem.path, problem.text);
  return !ctx_.diagnostics->HasErrors();
}

}  // namespace

bool ReadProfileText(std::string_view text, const ProfileReadOptions& options, DeviceDescription& out,
                     Diagnostics& diagnostics) {
  Diagnostics local;
  ReadContext ctx{options.source, options.strict, &local};
  out = DeviceDescription{};
  out.source = options.source;
  KeyOrder order;
  order.topLevelKeys = {"profiles", "capabilities"};
  FormatsFastPath formats;
  std::optional<Json> root = ParseJsonText(text, ctx, &order, options.fastFormats ? &formats : nullptr);
  bool ok = root && ProfileReader(ctx, order, formats, out).Read(*root, options.profileName);
  diagnostics.Append(local);
  return ok && !local.HasErrors();
}

bool ReadProfileFile(const std::string& path, ProfileReadOptions options, DeviceDescription& out,
                     Diagnostics& diagnostics) {
  if (options.source.empty()) options.source = path;
  std::string text;
  ReadContext ctx{options.source, options.strict, &diagnostics};
  if (!ReadTextFile(path, text, ctx)) return false;
  return ReadProfileText(text, options, out, diagnostics);
}

}  // namespace crashtest

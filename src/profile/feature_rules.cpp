#include "profile/feature_rules.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "profile/description_access.h"
#include "profile/struct_table.h"

namespace crashtest {
namespace {

uint32_t MinorVersion(uint32_t version) {
  return VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version), 0);
}

std::string VersionName(uint32_t version) {
  return "Vulkan " + std::to_string(VK_API_VERSION_MAJOR(version)) + '.' + std::to_string(VK_API_VERSION_MINOR(version));
}

struct FeatureRef {
  const StructInfo* info = nullptr;
  const MemberInfo* member = nullptr;
};

FeatureRef Resolve(std::string_view feature) {
  const std::size_t dot = feature.find('.');
  if (dot == std::string_view::npos) return {};
  const StructInfo* info = FindStruct(feature.substr(0, dot));
  const MemberInfo* member = info != nullptr ? info->FindMember(feature.substr(dot + 1)) : nullptr;
  return member != nullptr ? FeatureRef{info, member} : FeatureRef{};
}

// Calls visit(bytes) for the feature's member in every struct of `d` that holds it (its struct and the synonym).
template <typename Visit>
void ForEachCopy(const DeviceDescription& d, const FeatureRef& f, Visit&& visit) {
  auto& mutableDescription = const_cast<DeviceDescription&>(d);
  if (std::byte* bytes = StructBytes(mutableDescription, *f.info)) visit(bytes + f.member->offset);
  for (const MemberLinkInfo* link : MemberLinksOf(*f.info)) {
    if (link->individualMember == f.member) {
      if (std::byte* bytes = StructBytes(mutableDescription, *link->aggregate))
        visit(bytes + link->aggregateMember->offset);
    } else if (link->aggregateMember == f.member) {
      if (std::byte* bytes = StructBytes(mutableDescription, *link->individual))
        visit(bytes + link->individualMember->offset);
    }
  }
}

bool ConditionHolds(const DeviceDescription& d, std::string_view condition) {
  if (IsExtensionName(condition)) {
    return std::any_of(d.extensions.begin(), d.extensions.end(),
                       [&](const VkExtensionProperties& e) { return condition == e.extensionName; });
  }
  return FeatureSupported(d, condition);
}

bool Applies(const DeviceDescription& d, const FeatureRequirement& r) {
  if (r.minVersion != 0 && MinorVersion(d.properties.apiVersion) < r.minVersion) return false;
  return std::all_of(r.conditions.begin(), r.conditions.end(),
                     [&](std::string_view c) { return ConditionHolds(d, c); });
}

// The required features the description lacks ("" when the rule is met).
std::string Missing(const DeviceDescription& d, const FeatureRequirement& r) {
  std::string missing;
  for (std::string_view f : r.required) {
    if (FeatureSupported(d, f)) {
      if (r.anyOf) return "";
      continue;
    }
    missing += (missing.empty() ? "" : r.anyOf ? " or " : ", ") + std::string(f);
  }
  return missing;
}

std::string Describe(const FeatureRequirement& r) {
  std::string when;
  if (r.conditions.empty()) return VersionName(r.minVersion);
  for (std::string_view c : r.conditions) when += (when.empty() ? "" : " and ") + std::string(c);
  if (r.minVersion > VK_API_VERSION_1_0) when += " on " + VersionName(r.minVersion);
  return when;
}

void ClearFeature(DeviceDescription& d, std::string_view feature) {
  const FeatureRef f = Resolve(feature);
  if (f.info == nullptr) return;
  ForEachCopy(d, f, [](std::byte* p) {
    const VkBool32 off = VK_FALSE;
    std::memcpy(p, &off, sizeof off);
  });
}

}  // namespace

bool FeatureSupported(const DeviceDescription& d, std::string_view feature) {
  const FeatureRef f = Resolve(feature);
  if (f.info == nullptr || f.member->kind != MemberKind::Bool32) return false;
  bool supported = false;
  ForEachCopy(d, f, [&](const std::byte* p) {
    VkBool32 value;
    std::memcpy(&value, p, sizeof value);
    supported = supported || value == VK_TRUE;
  });
  return supported;
}

std::vector<std::string> UnmetFeatureRequirements(const DeviceDescription& d) {
  std::vector<std::string> unmet;
  for (const FeatureRequirement& r : FeatureRequirements()) {
    if (!Applies(d, r)) continue;
    if (std::string missing = Missing(d, r); !missing.empty())
      unmet.push_back(Describe(r) + " requires " + missing + " (Feature Requirements)");
  }
  return unmet;
}

bool DriverImplementsFeature(const DriverCapabilities& driver, std::string_view feature) {
  const FeatureRef f = Resolve(feature);
  if (f.info == nullptr) return false;
  if (driver.ImplementsFeature(f.info->name, f.member->name)) return true;
  for (const MemberLinkInfo* link : MemberLinksOf(*f.info)) {
    if (link->individualMember == f.member &&
        driver.ImplementsFeature(link->aggregate->name, link->aggregateMember->name))
      return true;
    if (link->aggregateMember == f.member &&
        driver.ImplementsFeature(link->individual->name, link->individualMember->name))
      return true;
  }
  return false;
}

void EnforceFeatureRequirements(DeviceDescription& d, const DriverCapabilities& driver) {
  // A feature cleared here is never enabled again (a rule that needs it then loses its condition instead): the
  // loop only moves one way and ends.
  std::vector<std::string_view> cleared;
  // Every rule's missing features enabled, when the driver honours them all: true when something was enabled.
  auto enable = [&](const FeatureRequirement& r) {
    std::vector<std::string_view> missing;
    for (std::string_view f : r.required)
      if (!FeatureSupported(d, f)) missing.push_back(f);
    if (r.anyOf) {
      std::vector<std::string_view> one;
      for (std::string_view f : missing)
        if (DriverImplementsFeature(driver, f) && std::find(cleared.begin(), cleared.end(), f) == cleared.end()) {
          one = {f};
          break;
        }
      if (one.empty()) return false;
      missing = one;
    }
    // Only features the driver honours, in a struct the device already reports (its version or an extension
    // provides it): a struct created here would be dropped again as unprovided.
    auto enableable = [&](std::string_view f) {
      const FeatureRef ref = Resolve(f);
      if (ref.info == nullptr || !DriverImplementsFeature(driver, f) ||
          std::find(cleared.begin(), cleared.end(), f) != cleared.end())
        return false;
      bool reported = false;
      ForEachCopy(d, ref, [&](std::byte*) { reported = true; });
      return reported;
    };
    if (missing.empty() || !std::all_of(missing.begin(), missing.end(), enableable)) return false;
    for (std::string_view f : missing) {
      const VkBool32 on = VK_TRUE;
      ForEachCopy(d, Resolve(f), [&](std::byte* p) { std::memcpy(p, &on, sizeof on); });
      d.added.push_back({"feature " + std::string(f), "the spec requires it with " + Describe(r) +
                                                          " (Feature Requirements)"});
    }
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const FeatureRequirement& r : FeatureRequirements()) {
      if (!Applies(d, r) || Missing(d, r).empty()) continue;
      if (enable(r)) {
        changed = true;
        break;
      }
      if (r.conditions.empty()) {
        // A version whose mandatory features the driver cannot give: the version below. (Nothing is below 1.0,
        // whose robust buffer access the driver always honours.)
        if (r.minVersion <= VK_API_VERSION_1_0) continue;
        const uint32_t was = MinorVersion(d.properties.apiVersion);
        const uint32_t version =
            VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(r.minVersion), VK_API_VERSION_MINOR(r.minVersion) - 1, 0);
        d.dropped.push_back({"apiVersion " + VersionName(was).substr(7) + " (reporting " +
                                 VersionName(version).substr(7) + ")",
                             "the features " + VersionName(r.minVersion) + " makes mandatory (" + Missing(d, r) +
                                 ") are not all supported (Feature Requirements)"});
        d.properties.apiVersion = VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version),
                                                      VK_API_VERSION_PATCH(d.properties.apiVersion));
        changed = true;
        break;
      }
      const std::string missing = Missing(d, r);
      const std::string_view last = r.conditions.back();
      const std::string reason = "the spec requires " + missing + " with it (Feature Requirements), and " +
                                 (r.anyOf ? "none is" : "not all are") + " supported";
      if (IsExtensionName(last)) {
        d.extensions.erase(std::remove_if(d.extensions.begin(), d.extensions.end(),
                                          [&](const VkExtensionProperties& e) { return last == e.extensionName; }),
                           d.extensions.end());
        d.dropped.push_back({"extension " + std::string(last), reason});
      } else {
        ClearFeature(d, last);
        cleared.push_back(last);
        d.dropped.push_back({"feature " + std::string(last), reason});
      }
      changed = true;
      break;
    }
  }
}

}  // namespace crashtest

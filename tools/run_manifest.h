// Where `crashtest run` finds the driver's manifest: the build tree's when this `crashtest` is the build tree's,
// else the installed one beside this executable's installation, else the configured install location.
#pragma once

#include <string>
#include <vector>

namespace crashtest {

// The manifest path, or "" with `searched` listing every place looked at.
std::string FindDriverManifest(std::vector<std::string>& searched);

}  // namespace crashtest

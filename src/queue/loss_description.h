// What a device's crash dump says beyond the fault reports (FaultEngine::Setup::describe): the device and profile
// identity, the submission the losing thread was executing (Executor::Describe), the bound pipelines, the
// resources owning device addresses (live and recently freed), the object names and the breadcrumbs.
#pragma once

#include <span>
#include <string>

#include "fault/dump/dump_content.h"
#include "fault/report_queue.h"

namespace crashtest {

class Device;

void DescribeLoss(const Device& device, std::span<const FaultReport> reports, const std::string& faultId,
                  dump::Content& content);

}  // namespace crashtest

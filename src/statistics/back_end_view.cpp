#include "statistics/back_end_view.h"

#include "pipeline/ir/passes/cleanup.h"
#include "pipeline/ir/passes/fold_constants.h"

namespace crashtest::statistics {

std::shared_ptr<const pipeline::CompiledShader> BackEndViewOf(const pipeline::CompiledShader& shader) {
  if (!ir::HasInexactFloatIdentities(shader.module)) return nullptr;
  auto view = std::make_shared<pipeline::CompiledShader>();
  view->module = shader.module;
  ir::CleanupOptions options;
  options.fold.inexactFloatIdentities = true;
  if (!ir::CleanUp(view->module, options)) return nullptr;
  // Once a fold made a value dead, the loads it read go, and then a variable only ever stored to (the array that
  // fed `peak * 0.0`) goes in the next round: dead-code elimination decides a variable's fate before its sweep.
  for (int round = 1; round < 4; ++round)
    if (!ir::CleanUp(view->module, options)) break;
  pipeline::Analyze(view.get());
  return view;
}

}  // namespace crashtest::statistics

// Which memory a vector load may be reordered with, as ACO's scheduler decides it (aco_scheduler.cpp's hazard
// query, Mesa 22.3): a store may move below a load unless the memories they touch may alias and the load cannot be
// reordered. Buffers and images alias each other (a texel buffer is both); workgroup memory aliases neither;
// Function and Private variables are registers (or scratch, which nothing else aliases). A load can be reordered
// with any store when what it reads is never written by the shader: a sampled texture or uniform texel buffer, a
// uniform buffer, a storage buffer or storage image the shader never writes (NIR's nir_opt_access infers
// ACCESS_CAN_REORDER for those), physical-storage-buffer memory when the shader writes none.
#pragma once

#include <vector>

#include "pipeline/ir/module.h"

namespace crashtest::statistics {

enum class StoreTarget : uint8_t {
  kRegisters,      // Function/Private variables: no memory order with vector loads
  kWorkgroup,      // LDS: does not alias buffers or images
  kBufferOrImage,  // buffers, images, physical storage buffers
  kFixed,          // anything else that writes: stage outputs (exports), which no load crosses
};

class MemoryAliasing {
 public:
  explicit MemoryAliasing(const ir::Module& module);

  // What a store (OpStore, OpImageWrite) writes.
  StoreTarget TargetOf(const ir::Instruction& store) const;
  // Whether a vector load (OpLoad of buffer memory, an image read, fetch, sample or gather) reads memory the
  // shader never writes, so that no store orders it.
  bool CanReorder(const ir::Instruction& load) const;

 private:
  ir::ValueId RootOf(ir::ValueId pointerOrImage) const;  // the global variable behind it, kNone if unknown
  const ir::Module& m_;
  std::vector<bool> written_;  // by global variable's ValueId
  bool physicalWritten_ = false, unknownWritten_ = false;
};

}  // namespace crashtest::statistics

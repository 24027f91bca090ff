// Vector registers that an instruction the back end expands into a sequence needs on top of its operands while
// the sequence runs (machine model expansionTemporaries). Modelled after RADV/ACO (NIR's lowering passes, ACO's
// instruction selection and aco_reduce_assign), checked against ACO's register-allocated code on navi21:
//
// - A subgroup reduction or scan of a divergent value (OpGroupNonUniform* arithmetic, Reduce, InclusiveScan,
//   ExclusiveScan, ClusteredReduce) is ACO's p_reduce / p_inclusive_scan / p_exclusive_scan: the operand is
//   copied into a temporary (a linear VGPR, `tmp`) that the DPP steps reduce in place, and a reduction across
//   rows of 16 lanes (clusters of 32 or the whole subgroup) needs a second one (`vtmp`) for v_permlanex16; the
//   result takes tmp's register. Boolean (lane mask) reductions are scalar and need none. The temporaries are
//   defined right before the reduction when it is outside control flow; inside control flow they are defined at
//   the end of the last block outside it (before its branch) and stay live up to the reduction, or to the exit
//   of the outermost construct when a loop encloses the reduction; reductions there share them.
// - An atomic add, min, max, and, or or xor of a divergent value at a uniform address becomes a subgroup
//   reduction of the value and one atomic from a single lane (nir_opt_uniform_atomics): the reduction's two
//   temporaries, as above.
// - An integer division or remainder by a value that is not a constant is lowered by nir_lower_idiv to a float
//   reciprocal refined by multiplications: the reciprocal, the quotient and a product are live with the
//   operands (unsigned: 3), and the signed forms divide the operands' absolute values (4: |n|, |d|, the
//   quotient and a product, the operands kept for the result's sign).
#pragma once

#include <cstdint>
#include <vector>

#include "pipeline/analysis/liveness.h"
#include "pipeline/analysis/uniformity.h"
#include "pipeline/ir/module.h"

namespace crashtest::statistics {

struct ExpansionTemporaries {
  bool any = false;
  uint32_t most = 0;  // the largest count of any kind below
  std::vector<uint32_t> atDefinition;      // per value
  std::vector<uint32_t> beforeDefinition;  // per value
  std::vector<uint32_t> throughBlock;      // per block
  std::vector<uint32_t> atBlockEnd;        // per block

  analysis::Liveness::Temporaries View() const {
    if (!any) return {};
    return {atDefinition, beforeDefinition, throughBlock, atBlockEnd};
  }
};

ExpansionTemporaries FindExpansionTemporaries(const ir::Module& module, const analysis::Uniformity& uniformity);

}  // namespace crashtest::statistics

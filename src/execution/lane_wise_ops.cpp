#include "execution/lane_wise_ops.h"

#include <spirv/unified1/spirv.hpp>

namespace crashtest::execution {

LaneWiseForm LaneWiseFormOf(uint32_t op) {
  switch (static_cast<spv::Op>(op)) {
    case spv::OpSNegate: case spv::OpFNegate: case spv::OpNot: case spv::OpLogicalNot: case spv::OpBitCount:
    case spv::OpBitReverse: case spv::OpIsNan: case spv::OpIsInf:
      return LaneWiseForm::kUnary;
    case spv::OpConvertFToU: case spv::OpConvertFToS: case spv::OpConvertSToF: case spv::OpConvertUToF:
    case spv::OpUConvert: case spv::OpSConvert: case spv::OpFConvert:
      return LaneWiseForm::kConversion;
    case spv::OpIAdd: case spv::OpISub: case spv::OpIMul: case spv::OpUDiv: case spv::OpSDiv: case spv::OpUMod:
    case spv::OpSRem: case spv::OpSMod: case spv::OpFAdd: case spv::OpFSub: case spv::OpFMul: case spv::OpFDiv:
    case spv::OpFRem: case spv::OpFMod: case spv::OpBitwiseAnd: case spv::OpBitwiseOr: case spv::OpBitwiseXor:
    case spv::OpShiftLeftLogical: case spv::OpShiftRightLogical: case spv::OpShiftRightArithmetic:
    case spv::OpIEqual: case spv::OpINotEqual: case spv::OpUGreaterThan: case spv::OpUGreaterThanEqual:
    case spv::OpULessThan: case spv::OpULessThanEqual: case spv::OpSGreaterThan: case spv::OpSGreaterThanEqual:
    case spv::OpSLessThan: case spv::OpSLessThanEqual: case spv::OpFOrdEqual: case spv::OpFOrdNotEqual:
    case spv::OpFOrdLessThan: case spv::OpFOrdLessThanEqual: case spv::OpFOrdGreaterThan:
    case spv::OpFOrdGreaterThanEqual: case spv::OpFUnordEqual: case spv::OpFUnordNotEqual:
    case spv::OpFUnordLessThan: case spv::OpFUnordLessThanEqual: case spv::OpFUnordGreaterThan:
    case spv::OpFUnordGreaterThanEqual: case spv::OpLogicalAnd: case spv::OpLogicalOr: case spv::OpLogicalEqual:
    case spv::OpLogicalNotEqual:
      return LaneWiseForm::kBinary;
    case spv::OpSelect:
      return LaneWiseForm::kSelect;
    default:
      return LaneWiseForm::kNone;
  }
}

}  // namespace crashtest::execution

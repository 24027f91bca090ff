// Composite construction and access, selection, and the vector and matrix products. Composites are consecutive
// slots (executable.h), so most of this is copying slots for the active lanes.
#include <bit>
#include <cstring>

#include "execution/ops/ops.h"

namespace crashtest::execution {

void CopySlots(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* a = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  const size_t words = static_cast<size_t>(op.n) * w;
  if (s.full) {
    std::memcpy(d, a, words * sizeof(uint32_t));
    return;
  }
  for (size_t i = 0; i < words; ++i) d[i] = Blend(s.laneMask[i % w], a[i], d[i]);
}

namespace ops {
namespace {

void CopyOneSlot(SubgroupState& s, uint32_t* d, const uint32_t* a) {
  const uint32_t w = s.width;
  if (s.full) {
    std::memcpy(d, a, w * sizeof(uint32_t));
    return;
  }
  for (uint32_t l = 0; l < w; ++l) d[l] = Blend(s.laneMask[l], a[l], d[l]);
}

template <Scalar K>
void DotOp(const Op& op, SubgroupState& s) {
  using T = typename Lane<K>::T;
  const uint32_t w = s.width;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* b = s.Slot(op.b);
  uint32_t* d = s.Slot(op.dst);
  if constexpr (K == Scalar::F32) {
    // Component by component over every lane (the same products, summed in the same order, so the same bits): loops
    // the compiler vectorises. The result's slot is not an operand's, hence restrict.
    float sum[kMaxSubgroupWidth];
    for (uint32_t c = 0; c < op.n; ++c) {
      const uint32_t* __restrict x = a + c * w;
      const uint32_t* __restrict y = b + c * w;
      for (uint32_t l = 0; l < w; ++l) {
        const float product = std::bit_cast<float>(x[l]) * std::bit_cast<float>(y[l]);
        sum[l] = c == 0 ? product : sum[l] + product;
      }
    }
    const uint32_t* __restrict mask = s.laneMask;
    uint32_t* __restrict to = d;
    for (uint32_t l = 0; l < w; ++l) to[l] = Blend(mask[l], std::bit_cast<uint32_t>(sum[l]), to[l]);
    return;
  }
  for (uint32_t l = 0; l < w; ++l) {
    T sum = Get<K>(a, w, 0, l) * Get<K>(b, w, 0, l);
    for (uint32_t c = 1; c < op.n; ++c) sum += Get<K>(a, w, c, l) * Get<K>(b, w, c, l);
    Put<K, false>(d, w, 0, l, sum, s.laneMask[l]);
  }
}

template <Scalar K>
void VectorTimesScalarOp(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* b = s.Slot(op.b);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t c = 0; c < op.n; ++c)
    for (uint32_t l = 0; l < w; ++l)
      Put<K, false>(d, w, c, l, Get<K>(a, w, c, l) * Get<K>(b, w, 0, l), s.laneMask[l]);
}

// r[row] = sum over col of m[col][row] * v[col]; m has aux columns of n rows.
template <Scalar K>
void MatrixTimesVectorOp(const Op& op, SubgroupState& s) {
  using T = typename Lane<K>::T;
  const uint32_t w = s.width, rows = op.n, cols = op.aux;
  const uint32_t* m = s.Slot(op.a);
  const uint32_t* v = s.Slot(op.b);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t row = 0; row < rows; ++row)
    for (uint32_t l = 0; l < w; ++l) {
      T sum = 0;
      for (uint32_t col = 0; col < cols; ++col) sum += Get<K>(m, w, col * rows + row, l) * Get<K>(v, w, col, l);
      Put<K, false>(d, w, row, l, sum, s.laneMask[l]);
    }
}

// r[col] = dot(v, m[col]); m has n columns of aux rows.
template <Scalar K>
void VectorTimesMatrixOp(const Op& op, SubgroupState& s) {
  using T = typename Lane<K>::T;
  const uint32_t w = s.width, cols = op.n, rows = op.aux;
  const uint32_t* v = s.Slot(op.a);
  const uint32_t* m = s.Slot(op.b);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t col = 0; col < cols; ++col)
    for (uint32_t l = 0; l < w; ++l) {
      T sum = 0;
      for (uint32_t row = 0; row < rows; ++row) sum += Get<K>(v, w, row, l) * Get<K>(m, w, col * rows + row, l);
      Put<K, false>(d, w, col, l, sum, s.laneMask[l]);
    }
}

// a: c (inner) columns of aux rows; b: n columns of c rows; r: n columns of aux rows.
template <Scalar K>
void MatrixTimesMatrixOp(const Op& op, SubgroupState& s) {
  using T = typename Lane<K>::T;
  const uint32_t w = s.width, rows = op.aux, inner = op.c, cols = op.n;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* b = s.Slot(op.b);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t col = 0; col < cols; ++col)
    for (uint32_t row = 0; row < rows; ++row)
      for (uint32_t l = 0; l < w; ++l) {
        T sum = 0;
        for (uint32_t k = 0; k < inner; ++k) sum += Get<K>(a, w, k * rows + row, l) * Get<K>(b, w, col * inner + k, l);
        Put<K, false>(d, w, col * rows + row, l, sum, s.laneMask[l]);
      }
}

// a: n rows; b: aux columns; r[col][row] = a[row] * b[col].
template <Scalar K>
void OuterProductOp(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width, rows = op.n, cols = op.aux;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* b = s.Slot(op.b);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t col = 0; col < cols; ++col)
    for (uint32_t row = 0; row < rows; ++row)
      for (uint32_t l = 0; l < w; ++l)
        Put<K, false>(d, w, col * rows + row, l, Get<K>(a, w, row, l) * Get<K>(b, w, col, l), s.laneMask[l]);
}

// a: aux columns of n rows; r: n columns of aux rows.
template <Scalar K>
void TransposeOp(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width, rows = op.n, cols = op.aux;
  const uint32_t* a = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t col = 0; col < cols; ++col)
    for (uint32_t row = 0; row < rows; ++row)
      for (uint32_t l = 0; l < w; ++l)
        Put<K, false>(d, w, row * cols + col, l, Get<K>(a, w, col * rows + row, l), s.laneMask[l]);
}

template <template <Scalar> class F>
OpHandler ByFloat(Scalar k);

#define CT_FLOAT_FACTORY(Name, Kernel)                     \
  OpHandler Name(Scalar k) {                               \
    switch (k) {                                           \
      case Scalar::F16: return &Kernel<Scalar::F16>;       \
      case Scalar::F32: return &Kernel<Scalar::F32>;       \
      case Scalar::F64: return &Kernel<Scalar::F64>;       \
      default: return nullptr;                             \
    }                                                      \
  }

}  // namespace

void Copy(const Op& op, SubgroupState& s) { CopySlots(op, s); }

void Select(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* cond = s.Slot(op.a);
  const uint32_t* t = s.Slot(op.b);
  const uint32_t* f = s.Slot(op.c);
  uint32_t* d = s.Slot(op.dst);
  const uint32_t perComponent = op.aux == 0 ? op.n : op.n / op.aux;
  for (uint32_t i = 0; i < op.n; ++i) {
    const uint32_t* cv = cond + static_cast<size_t>(op.aux == 0 ? 0 : i / perComponent) * w;
    const size_t base = static_cast<size_t>(i) * w;
    for (uint32_t l = 0; l < w; ++l) {
      uint32_t pick = cv[l] != 0 ? t[base + l] : f[base + l];
      d[base + l] = Blend(s.laneMask[l], pick, d[base + l]);
    }
  }
}

void Shuffle(const Op& op, SubgroupState& s) {
  const uint32_t* sources = s.exe->extra.data() + op.aux;
  for (uint32_t i = 0; i < op.n; ++i) CopyOneSlot(s, s.Slot(op.dst + i), s.Slot(sources[i]));
}

void ExtractDynamic(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width, per = op.n, count = op.aux;
  const uint32_t* v = s.Slot(op.a);
  const uint32_t* index = s.Slot(op.b);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    uint32_t i = index[l];
    // An index outside the vector gives an undefined value: the first component.
    if (i >= count) i = 0;
    for (uint32_t k = 0; k < per; ++k) d[static_cast<size_t>(k) * w + l] = v[static_cast<size_t>(i * per + k) * w + l];
  });
}

void InsertDynamic(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width, per = op.n, count = op.aux;
  const uint32_t* v = s.Slot(op.a);
  const uint32_t* value = s.Slot(op.b);
  const uint32_t* index = s.Slot(op.c);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    for (uint32_t k = 0; k < per * count; ++k) d[static_cast<size_t>(k) * w + l] = v[static_cast<size_t>(k) * w + l];
    uint32_t i = index[l];
    if (i >= count) return;  // undefined: the vector unchanged
    for (uint32_t k = 0; k < per; ++k) d[static_cast<size_t>(i * per + k) * w + l] = value[static_cast<size_t>(k) * w + l];
  });
}

CT_FLOAT_FACTORY(Dot, DotOp)
CT_FLOAT_FACTORY(VectorTimesScalar, VectorTimesScalarOp)
CT_FLOAT_FACTORY(MatrixTimesVector, MatrixTimesVectorOp)
CT_FLOAT_FACTORY(VectorTimesMatrix, VectorTimesMatrixOp)
CT_FLOAT_FACTORY(MatrixTimesMatrix, MatrixTimesMatrixOp)
CT_FLOAT_FACTORY(OuterProduct, OuterProductOp)
CT_FLOAT_FACTORY(Transpose, TransposeOp)


// OpBitcast between different component sizes (u64 <-> uvec2, uint <-> f16vec2, u8vec4 <-> uint, ...): the
// source's bits laid end to end, low component first, then cut into the result's components ("the bit pattern
// ... of the lower-numbered component first" in OpBitcast). aux: source bits | result bits << 8 | source
// components << 16; n: result components.
void Repack(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t fromBits = op.aux & 0xff, toBits = (op.aux >> 8) & 0xff, fromCount = op.aux >> 16;
  const uint32_t* a = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    uint8_t bytes[32] = {};
    uint32_t at = 0;
    for (uint32_t c = 0; c < fromCount && at + fromBits / 8 <= sizeof bytes; ++c) {
      uint64_t value = fromBits == 64 ? Join(a[(2 * c) * w + l], a[(2 * c + 1) * w + l]) : a[c * w + l];
      for (uint32_t b = 0; b < fromBits / 8; ++b, value >>= 8) bytes[at++] = static_cast<uint8_t>(value);
    }
    at = 0;
    for (uint32_t c = 0; c < op.n && at + toBits / 8 <= sizeof bytes; ++c) {
      uint64_t value = 0;
      for (uint32_t b = 0; b < toBits / 8; ++b) value |= uint64_t{bytes[at++]} << (8 * b);
      if (toBits == 64) {
        d[(2 * c) * w + l] = static_cast<uint32_t>(value);
        d[(2 * c + 1) * w + l] = static_cast<uint32_t>(value >> 32);
      } else {
        d[c * w + l] = static_cast<uint32_t>(value);
      }
    }
  });
}

}  // namespace ops
}  // namespace crashtest::execution

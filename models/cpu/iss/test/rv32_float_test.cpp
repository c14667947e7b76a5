// rv32_float (integer-only binary32 arithmetic) against the host's IEEE 754 hardware: x86-64
// SSE rounds binary32 add, sub, mul, div, sqrt and (FMA3) fused multiply-add correctly in
// the four rounding modes it has, and detects tininess after rounding, as RISC-V does. Its
// NaN results carry payloads where RISC-V returns the canonical NaN, so NaN results are
// compared as "canonical NaN". Round-to-nearest-max-magnitude, which the host lacks, is checked
// through ties (it differs from ties-to-even only there), and the RISC-V-specific rules
// (conversions' saturation, min/max, comparisons, fclass) against the specification's tables.
//
// This file is compiled with -frounding-math (the host computations depend on fesetround).
#include "models/cpu/iss/rv32_float.h"

#include <gtest/gtest.h>
#include <immintrin.h>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace socsim {
namespace {

float as_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t as_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

struct HostResult {
  uint32_t bits;
  uint32_t flags;
};

uint32_t host_flags() {
  const int e = std::fetestexcept(FE_ALL_EXCEPT);
  uint32_t f = 0;
  if (e & FE_INEXACT) f |= f32::kInexact;
  if (e & FE_UNDERFLOW) f |= f32::kUnderflow;
  if (e & FE_OVERFLOW) f |= f32::kOverflow;
  if (e & FE_DIVBYZERO) f |= f32::kDivByZero;
  if (e & FE_INVALID) f |= f32::kInvalid;
  return f;
}

int host_mode(f32::Rounding rm) {
  switch (rm) {
    case f32::kRtz:
      return FE_TOWARDZERO;
    case f32::kRdn:
      return FE_DOWNWARD;
    case f32::kRup:
      return FE_UPWARD;
    default:
      return FE_TONEAREST;
  }
}

enum class Op { kAdd, kSub, kMul, kDiv, kSqrt, kFma };

__attribute__((target("fma"))) float host_fma(float a, float b, float c) {
  return _mm_cvtss_f32(_mm_fmadd_ss(_mm_set_ss(a), _mm_set_ss(b), _mm_set_ss(c)));
}

HostResult host(Op op, uint32_t a, uint32_t b, uint32_t c, f32::Rounding rm) {
  volatile float x = as_float(a), y = as_float(b), z = as_float(c);
  volatile float r;
  std::fesetround(host_mode(rm));
  std::feclearexcept(FE_ALL_EXCEPT);
  switch (op) {
    case Op::kAdd:
      r = x + y;
      break;
    case Op::kSub:
      r = x - y;
      break;
    case Op::kMul:
      r = x * y;
      break;
    case Op::kDiv:
      r = x / y;
      break;
    case Op::kSqrt:
      r = _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x)));
      break;
    case Op::kFma:
      r = host_fma(x, y, z);
      break;
  }
  const uint32_t flags = host_flags();
  std::fesetround(FE_TONEAREST);
  uint32_t bits = as_bits(r);
  if (f32::is_nan(bits)) bits = f32::kCanonicalNan;
  return {bits, flags};
}

HostResult ours(Op op, uint32_t a, uint32_t b, uint32_t c, f32::Rounding rm) {
  uint32_t flags = 0, r = 0;
  switch (op) {
    case Op::kAdd:
      r = f32::add(a, b, rm, &flags);
      break;
    case Op::kSub:
      r = f32::sub(a, b, rm, &flags);
      break;
    case Op::kMul:
      r = f32::mul(a, b, rm, &flags);
      break;
    case Op::kDiv:
      r = f32::div(a, b, rm, &flags);
      break;
    case Op::kSqrt:
      r = f32::sqrt(a, rm, &flags);
      break;
    case Op::kFma:
      r = f32::fma(a, b, c, false, false, rm, &flags);
      break;
  }
  return {r, flags};
}

/// Operands that reach the special cases: zeros, infinities, NaNs of both kinds, subnormals,
/// the edges of the normal range, and random values near them and near each other.
class Operands {
 public:
  explicit Operands(uint32_t seed) : rng_(seed) {}
  uint32_t next() {
    static const uint32_t kSpecial[] = {
        0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001,
        0xFFA00000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000,
        0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x3F800001, 0x33800000, 0x4B000000,
        0x4F000000, 0xCF000000, 0x4F800000, 0x3F000000, 0x00400000, 0x00800001, 0x7F000000};
    const uint32_t pick = rng_() % 8;
    const uint32_t r = static_cast<uint32_t>(rng_());
    switch (pick) {
      case 0:
        return kSpecial[rng_() % (sizeof kSpecial / sizeof kSpecial[0])];
      case 1:
        return r & 0x80FFFFFF;  // subnormal or tiny normal
      case 2:
        return (r & 0x807FFFFF) | 0x7E800000 | (r & 0x00800000);  // near overflow
      case 3:
        return (r & 0x807FFFFF) | ((120 + r % 16) << 23);  // near 1
      case 4:
        return last_ ^ (r & 0x8000000F);  // close to the previous operand
      default:
        return last_ = r;
    }
  }

 private:
  std::mt19937_64 rng_;
  uint32_t last_ = 0x3F800000;
};

const f32::Rounding kHostModes[] = {f32::kRne, f32::kRtz, f32::kRdn, f32::kRup};

void check_against_host(Op op, const char* name, uint32_t seed, int count) {
  Operands gen(seed);
  int mismatches = 0;
  for (int i = 0; i < count; ++i) {
    const uint32_t a = gen.next(), b = gen.next(), c = gen.next();
    for (f32::Rounding rm : kHostModes) {
      const HostResult want = host(op, a, b, c, rm), got = ours(op, a, b, c, rm);
      if ((want.bits != got.bits || want.flags != got.flags) && ++mismatches <= 10) {
        ADD_FAILURE() << name << " rm " << int(rm) << std::hex << " a=" << a << " b=" << b
                      << " c=" << c << ": host " << want.bits << " flags " << want.flags
                      << ", ours " << got.bits << " flags " << got.flags;
      }
    }
  }
  EXPECT_EQ(mismatches, 0) << name;
}

TEST(Rv32Float, AddAgainstHost) {
  check_against_host(Op::kAdd, "add", 1, 60000);
}
TEST(Rv32Float, SubAgainstHost) {
  check_against_host(Op::kSub, "sub", 2, 60000);
}
TEST(Rv32Float, MulAgainstHost) {
  check_against_host(Op::kMul, "mul", 3, 60000);
}
TEST(Rv32Float, DivAgainstHost) {
  check_against_host(Op::kDiv, "div", 4, 60000);
}
TEST(Rv32Float, SqrtAgainstHost) {
  check_against_host(Op::kSqrt, "sqrt", 5, 60000);
}
TEST(Rv32Float, FmaAgainstHost) {
  if (!__builtin_cpu_supports("fma")) GTEST_SKIP() << "the host has no FMA3";
  check_against_host(Op::kFma, "fma", 6, 60000);
}

// fmsub, fnmsub, fnmadd are fmadd with signs flipped (NaN operands aside).
TEST(Rv32Float, FusedVariantsAreSignFlips) {
  Operands gen(7);
  for (int i = 0; i < 100000; ++i) {
    const uint32_t a = gen.next(), b = gen.next(), c = gen.next();
    if (f32::is_nan(a) || f32::is_nan(b) || f32::is_nan(c)) continue;
    for (f32::Rounding rm : kHostModes) {
      uint32_t f1 = 0, f2 = 0;
      ASSERT_EQ(f32::fma(a, b, c, false, true, rm, &f1),
                f32::fma(a, b, c ^ 0x80000000u, false, false, rm, &f2));
      ASSERT_EQ(f1, f2);
      f1 = f2 = 0;
      ASSERT_EQ(f32::fma(a, b, c, true, false, rm, &f1),
                f32::fma(a ^ 0x80000000u, b, c, false, false, rm, &f2));
      ASSERT_EQ(f1, f2);
    }
  }
}

/// Round to nearest, ties away: where the round-towards-zero and the away-from-zero results
/// differ and the exact value lies exactly halfway (the exact value is a double here: products
/// of two floats, and sums of floats whose exponents are close), the away one; elsewhere the
/// ties-to-even result. Flags: those of ties-to-even (NX alike; UF and OF can differ only at
/// ties next to the range's edges, which are left out).
void check_rmm(Op op, uint32_t seed, int count) {
  Operands gen(seed);
  int ties = 0;
  for (int i = 0; i < count; ++i) {
    uint32_t a = gen.next(), b = gen.next();
    if (i & 1) {  // short significands make exact ties frequent
      a &= 0xFFFFF800u;
      b &= 0xFFFFF800u;
    }
    const float fa = as_float(a), fb = as_float(b);
    if (!std::isfinite(fa) || !std::isfinite(fb)) continue;
    double exact;
    if (op == Op::kMul) {
      exact = double(fa) * double(fb);
    } else {
      int ea, eb;
      std::frexp(fa, &ea);
      std::frexp(fb, &eb);
      if (std::abs(ea - eb) > 25) continue;
      exact = double(fa) + double(fb);
    }
    const double mag = std::fabs(exact);
    if (mag < 1e-37 || mag > 1e37) continue;  // away from the range's edges
    const HostResult rtz = host(op, a, b, 0, f32::kRtz);
    const HostResult away = host(op, a, b, 0, exact < 0 ? f32::kRdn : f32::kRup);
    const HostResult rne = host(op, a, b, 0, f32::kRne);
    uint32_t want = rne.bits;
    if (rtz.bits != away.bits &&
        2 * exact == double(as_float(rtz.bits)) + double(as_float(away.bits))) {
      want = away.bits;
      ++ties;
    }
    uint32_t flags = 0;
    const uint32_t got =
        op == Op::kMul ? f32::mul(a, b, f32::kRmm, &flags) : f32::add(a, b, f32::kRmm, &flags);
    ASSERT_EQ(got, want) << std::hex << a << " " << b;
    ASSERT_EQ(flags & f32::kInexact, rne.flags & f32::kInexact) << std::hex << a << " " << b;
  }
  EXPECT_GT(ties, 0);
}

TEST(Rv32Float, RoundToMaxMagnitude) {
  check_rmm(Op::kMul, 8, 100000);
  check_rmm(Op::kAdd, 9, 100000);
  uint32_t flags = 0;
  // 1 + 2^-24 is halfway between 1 and 1 + 2^-23: away gives the larger, even the smaller.
  EXPECT_EQ(f32::add(0x3F800000, 0x33800000, f32::kRmm, &flags), 0x3F800001u);
  EXPECT_EQ(f32::add(0x3F800000, 0x33800000, f32::kRne, &flags), 0x3F800000u);
  // Halfway between the largest finite value and 2^128 overflows to infinity.
  flags = 0;
  EXPECT_EQ(f32::add(0x7F7FFFFF, 0x73000000, f32::kRmm, &flags), 0x7F800000u);
  EXPECT_EQ(flags, f32::kOverflow | f32::kInexact);
}

// The RISC-V rules the host does not share.
TEST(Rv32Float, ConversionsSaturateAsSpecified) {
  struct Case {
    uint32_t in;
    f32::Rounding rm;
    uint32_t w, w_flags, wu, wu_flags;
  };
  const Case cases[] = {
      {0x7FC00000, f32::kRne, 0x7FFFFFFF, f32::kInvalid, 0xFFFFFFFF, f32::kInvalid},
      {0xFFA00000, f32::kRne, 0x7FFFFFFF, f32::kInvalid, 0xFFFFFFFF, f32::kInvalid},
      {0x7F800000, f32::kRne, 0x7FFFFFFF, f32::kInvalid, 0xFFFFFFFF, f32::kInvalid},
      {0xFF800000, f32::kRne, 0x80000000, f32::kInvalid, 0, f32::kInvalid},
      {0xBF800000, f32::kRne, 0xFFFFFFFF, 0, 0, f32::kInvalid},                       // -1.0
      {0xBE99999A, f32::kRtz, 0, f32::kInexact, 0, f32::kInexact},                    // -0.3
      {0xBE99999A, f32::kRdn, 0xFFFFFFFF, f32::kInexact, 0, f32::kInvalid},           // -0.3 -> -1
      {0x3F000000, f32::kRne, 0, f32::kInexact, 0, f32::kInexact},                    // 0.5 -> 0
      {0x3F000000, f32::kRmm, 1, f32::kInexact, 1, f32::kInexact},                    // 0.5 -> 1
      {0x3FC00000, f32::kRne, 2, f32::kInexact, 2, f32::kInexact},                    // 1.5 -> 2
      {0x40200000, f32::kRne, 2, f32::kInexact, 2, f32::kInexact},                    // 2.5 -> 2
      {0x4F000000, f32::kRne, 0x7FFFFFFF, f32::kInvalid, 0x80000000, 0},              // 2^31
      {0xCF000000, f32::kRne, 0x80000000, 0, 0, f32::kInvalid},                       // -2^31
      {0x4F800000, f32::kRne, 0x7FFFFFFF, f32::kInvalid, 0xFFFFFFFF, f32::kInvalid},  // 2^32
      {0x4F7FFFFF, f32::kRne, 0x7FFFFFFF, f32::kInvalid, 0xFFFFFF00, 0},
      {0x00000001, f32::kRup, 1, f32::kInexact, 1, f32::kInexact},
      {0x80000000, f32::kRne, 0, 0, 0, 0},
  };
  for (const Case& c : cases) {
    uint32_t fw = 0, fwu = 0;
    EXPECT_EQ(f32::to_int32(c.in, c.rm, &fw), c.w) << std::hex << c.in;
    EXPECT_EQ(fw, c.w_flags) << std::hex << c.in;
    EXPECT_EQ(f32::to_uint32(c.in, c.rm, &fwu), c.wu) << std::hex << c.in;
    EXPECT_EQ(fwu, c.wu_flags) << std::hex << c.in;
  }
}

TEST(Rv32Float, ConversionsFromIntegersAgainstHost) {
  std::mt19937 rng(10);
  for (int i = 0; i < 50000; ++i) {
    const uint32_t v = i < 64 ? (1u << (i % 32)) - (i / 32) : rng() >> (rng() % 32);
    for (f32::Rounding rm : kHostModes) {
      std::fesetround(host_mode(rm));
      std::feclearexcept(FE_ALL_EXCEPT);
      volatile int32_t sv = static_cast<int32_t>(v);
      volatile uint32_t uv = v;
      volatile float s = static_cast<float>(sv);
      const uint32_t s_flags = host_flags();
      std::feclearexcept(FE_ALL_EXCEPT);
      volatile float u = static_cast<float>(uv);
      const uint32_t u_flags = host_flags();
      std::fesetround(FE_TONEAREST);
      uint32_t fs = 0, fu = 0;
      ASSERT_EQ(f32::from_int32(v, rm, &fs), as_bits(s)) << v;
      ASSERT_EQ(fs, s_flags) << v;
      ASSERT_EQ(f32::from_uint32(v, rm, &fu), as_bits(u)) << v;
      ASSERT_EQ(fu, u_flags) << v;
    }
  }
}

TEST(Rv32Float, ConversionsToIntegersAgainstHost) {
  // In range, the host's rint in the same mode gives the value, and NX when inexact.
  Operands gen(11);
  for (int i = 0; i < 50000; ++i) {
    const uint32_t a = gen.next();
    const float f = as_float(a);
    if (!std::isfinite(f) || std::fabs(f) >= 2147483520.0f) continue;
    for (f32::Rounding rm : kHostModes) {
      std::fesetround(host_mode(rm));
      volatile float in = f;
      const float r = std::nearbyint(in);
      std::fesetround(FE_TONEAREST);
      uint32_t flags = 0;
      ASSERT_EQ(f32::to_int32(a, rm, &flags), static_cast<uint32_t>(static_cast<int32_t>(r)))
          << std::hex << a;
      ASSERT_EQ(flags, r != f ? f32::kInexact : 0u) << std::hex << a;
    }
  }
}

TEST(Rv32Float, MinMaxCompareClassify) {
  const uint32_t qnan = 0x7FC00000, snan = 0x7F800001, one = 0x3F800000, neg = 0xC0000000;
  uint32_t flags = 0;
  EXPECT_EQ(f32::min(qnan, one, &flags), one);
  EXPECT_EQ(f32::max(one, qnan, &flags), one);
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(f32::min(snan, one, &flags), one);
  EXPECT_EQ(flags, f32::kInvalid);
  flags = 0;
  EXPECT_EQ(f32::max(snan, qnan, &flags), f32::kCanonicalNan);
  EXPECT_EQ(flags, f32::kInvalid);
  flags = 0;
  EXPECT_EQ(f32::min(0x00000000, 0x80000000, &flags), 0x80000000u);
  EXPECT_EQ(f32::max(0x80000000, 0x00000000, &flags), 0x00000000u);
  EXPECT_EQ(f32::min(neg, one, &flags), neg);
  EXPECT_EQ(f32::max(neg, one, &flags), one);
  EXPECT_EQ(f32::eq(0x00000000, 0x80000000, &flags), 1u);
  EXPECT_EQ(f32::lt(0x80000000, 0x00000000, &flags), 0u);
  EXPECT_EQ(f32::le(0x80000000, 0x00000000, &flags), 1u);
  EXPECT_EQ(f32::lt(neg, one, &flags), 1u);
  EXPECT_EQ(f32::le(one, neg, &flags), 0u);
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(f32::eq(qnan, qnan, &flags), 0u);
  EXPECT_EQ(flags, 0u);  // feq is quiet
  EXPECT_EQ(f32::eq(snan, one, &flags), 0u);
  EXPECT_EQ(flags, f32::kInvalid);
  flags = 0;
  EXPECT_EQ(f32::lt(qnan, one, &flags), 0u);
  EXPECT_EQ(flags, f32::kInvalid);  // flt and fle signal on any NaN
  const uint32_t classes[][2] = {{0xFF800000, 1},   {0xBF800000, 2},   {0x807FFFFF, 4},
                                 {0x80000000, 8},   {0x00000000, 16},  {0x00000001, 32},
                                 {0x3F800000, 64},  {0x7F800000, 128}, {0x7F800001, 256},
                                 {0x7FC00000, 512}, {0xFFC00000, 512}, {0xFFBFFFFF, 256}};
  for (const auto& c : classes) EXPECT_EQ(f32::classify(c[0]), c[1]) << std::hex << c[0];
  // A random sweep: min/max agree with the comparisons, and every value is in one class.
  Operands gen(12);
  for (int i = 0; i < 100000; ++i) {
    const uint32_t a = gen.next(), b = gen.next();
    const uint32_t c = f32::classify(a);
    ASSERT_EQ(__builtin_popcount(c), 1) << std::hex << a;
    if (f32::is_nan(a) || f32::is_nan(b)) continue;
    uint32_t f = 0;
    const uint32_t lo = f32::min(a, b, &f), hi = f32::max(a, b, &f);
    ASSERT_TRUE(f32::le(lo, hi, &f));
    ASSERT_TRUE(lo == a || lo == b);
    ASSERT_TRUE(hi == a || hi == b);
    ASSERT_EQ(f32::lt(a, b, &f), as_float(a) < as_float(b) ? 1u : 0u);
    ASSERT_EQ(f32::eq(a, b, &f), as_float(a) == as_float(b) ? 1u : 0u);
    ASSERT_EQ(f, 0u);
  }
}

TEST(Rv32Float, SpecialCasesOfTheSpecification) {
  uint32_t flags = 0;
  // infinity * 0 + quiet NaN raises NV (RISC-V's choice).
  EXPECT_EQ(f32::fma(0x7F800000, 0, 0x7FC00000, false, false, f32::kRne, &flags),
            f32::kCanonicalNan);
  EXPECT_EQ(flags, f32::kInvalid);
  flags = 0;
  // x - x is +0, except when rounding down.
  EXPECT_EQ(f32::sub(0x3F800000, 0x3F800000, f32::kRne, &flags), 0u);
  EXPECT_EQ(f32::sub(0x3F800000, 0x3F800000, f32::kRdn, &flags), 0x80000000u);
  EXPECT_EQ(f32::fma(0x3F800000, 0x3F800000, 0xBF800000, false, false, f32::kRdn, &flags),
            0x80000000u);
  EXPECT_EQ(flags, 0u);
  // sqrt(-0) = -0; sqrt(-x) is invalid; 1 / 0 divides by zero.
  EXPECT_EQ(f32::sqrt(0x80000000, f32::kRne, &flags), 0x80000000u);
  EXPECT_EQ(f32::sqrt(0xBF800000, f32::kRne, &flags), f32::kCanonicalNan);
  EXPECT_EQ(flags, f32::kInvalid);
  flags = 0;
  EXPECT_EQ(f32::div(0x3F800000, 0x80000000, f32::kRne, &flags), 0xFF800000u);
  EXPECT_EQ(flags, f32::kDivByZero);
  // Sign injection passes NaNs through untouched.
  EXPECT_EQ(f32::sign_inject_negated(0x7F800001, 0x00000000), 0xFF800001u);
  EXPECT_EQ(f32::sign_inject_xor(0xFFC00000, 0x80000000), 0x7FC00000u);
}

}  // namespace
}  // namespace socsim

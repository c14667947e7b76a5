// RV32F arithmetic on IEEE 754 binary32 values held as their bit patterns, exact in result
// bits and exception flags for every rounding mode, as the RISC-V unprivileged specification
// ("F" Standard Extension) defines it: results that are NaN are the canonical NaN 0x7FC00000,
// signalling NaNs raise the invalid flag, subnormals are kept (no flush to zero), tininess is
// detected after rounding, fmadd and friends round once (fused). Integer arithmetic only: the
// host's floating point and its rounding mode are never used, so results do not depend on the
// host or the compiler.
//
// Every operation computes its exact result as a significand and a power of two (a sticky bit
// standing for the bits shifted out) and rounds it in one place, round_pack() in
// rv32_float.cpp; the rules for special operands follow the specification's text and the
// behaviour of Berkeley SoftFloat's RISC-V specialisation (facts, not its code).
#pragma once

#include <cstdint>

namespace socsim::f32 {

/// The rounding modes as encoded in the rm field and in frm (3'b101, 3'b110 are reserved, 3'b111
/// in an instruction means "use frm").
enum Rounding : uint8_t {
  kRne = 0,  ///< to nearest, ties to even
  kRtz = 1,  ///< towards zero
  kRdn = 2,  ///< down (towards -infinity)
  kRup = 3,  ///< up (towards +infinity)
  kRmm = 4,  ///< to nearest, ties away from zero (max magnitude)
};

/// fflags bits (fcsr[4:0]).
enum Flag : uint32_t {
  kInexact = 1u << 0,    ///< NX
  kUnderflow = 1u << 1,  ///< UF
  kOverflow = 1u << 2,   ///< OF
  kDivByZero = 1u << 3,  ///< DZ
  kInvalid = 1u << 4,    ///< NV
};

constexpr uint32_t kCanonicalNan = 0x7FC00000u;

/// Whether a rounding mode value (from an instruction's rm or from frm) is one of the five.
constexpr bool valid_rounding(uint32_t rm) {
  return rm <= 4;
}

// Arithmetic: each returns the result's bits and ORs the exception flags it raises into *flags.
uint32_t add(uint32_t a, uint32_t b, Rounding rm, uint32_t* flags);
uint32_t sub(uint32_t a, uint32_t b, Rounding rm, uint32_t* flags);
uint32_t mul(uint32_t a, uint32_t b, Rounding rm, uint32_t* flags);
uint32_t div(uint32_t a, uint32_t b, Rounding rm, uint32_t* flags);
uint32_t sqrt(uint32_t a, Rounding rm, uint32_t* flags);
/// (negate_product ? -(a * b) : a * b) + (negate_addend ? -c : c), rounded once:
/// fmadd (false, false), fmsub (false, true), fnmsub (true, false), fnmadd (true, true).
uint32_t fma(uint32_t a, uint32_t b, uint32_t c, bool negate_product, bool negate_addend,
             Rounding rm, uint32_t* flags);

/// fmin.s / fmax.s: -0 is below +0; one NaN operand gives the other operand, two give the
/// canonical NaN; a signalling NaN raises NV.
uint32_t min(uint32_t a, uint32_t b, uint32_t* flags);
uint32_t max(uint32_t a, uint32_t b, uint32_t* flags);
/// feq.s (quiet: NV only for a signalling NaN), flt.s and fle.s (NV for any NaN): 1 or 0.
uint32_t eq(uint32_t a, uint32_t b, uint32_t* flags);
uint32_t lt(uint32_t a, uint32_t b, uint32_t* flags);
uint32_t le(uint32_t a, uint32_t b, uint32_t* flags);
/// fclass.s: one of bits 0..9 (-inf, -normal, -subnormal, -0, +0, +subnormal, +normal, +inf,
/// signalling NaN, quiet NaN).
uint32_t classify(uint32_t a);

/// fcvt.w.s / fcvt.wu.s: rounded with rm; out of range or NaN gives NV and the saturated value
/// (NaN: the largest value); otherwise NX when inexact.
uint32_t to_int32(uint32_t a, Rounding rm, uint32_t* flags);
uint32_t to_uint32(uint32_t a, Rounding rm, uint32_t* flags);
/// fcvt.s.w / fcvt.s.wu.
uint32_t from_int32(uint32_t v, Rounding rm, uint32_t* flags);
uint32_t from_uint32(uint32_t v, Rounding rm, uint32_t* flags);

/// fsgnj.s, fsgnjn.s, fsgnjx.s: a's magnitude with b's sign, its inverse, or the two signs' xor.
constexpr uint32_t sign_inject(uint32_t a, uint32_t b) {
  return (a & 0x7FFFFFFFu) | (b & 0x80000000u);
}
constexpr uint32_t sign_inject_negated(uint32_t a, uint32_t b) {
  return (a & 0x7FFFFFFFu) | (~b & 0x80000000u);
}
constexpr uint32_t sign_inject_xor(uint32_t a, uint32_t b) {
  return a ^ (b & 0x80000000u);
}

constexpr bool is_nan(uint32_t a) {
  return (a & 0x7F800000u) == 0x7F800000u && (a & 0x7FFFFFu);
}
constexpr bool is_signalling_nan(uint32_t a) {
  return is_nan(a) && !(a & 0x00400000u);
}

}  // namespace socsim::f32

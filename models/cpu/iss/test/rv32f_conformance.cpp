// rv32f_conformance: writes a self-checking RISC-V assembly program (for rv_harness and the
// timing suite's start-up, tests/timing/crt.S) that runs every RV32F instruction on operands
// that reach the special cases (zeros, infinities, quiet and signalling NaNs, subnormals, the
// range's edges, near-ties), in every static rounding mode and with the dynamic mode from frm,
// and compares each result and the fflags it raised with the values rv32_float computes
// (models/cpu/iss/rv32_float.h). Run on a core with an FPU (the genuine CV32E40P with FPU=1,
// scripts/cv32e40p-check.sh --fpu) it holds socsim's float arithmetic against that core's,
// bit for bit. The program prints each mismatch and a summary, and exits with the number of
// mismatches (0: identical).
//
//   rv32f_conformance OUT.S [--count N] [--seed S] [--zfinx]
//
// --zfinx writes the program for a core whose float instructions use the x registers (Zfinx:
// no flw/fsw/fmv, operands loaded with lw).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "models/cpu/iss/rv32_float.h"

namespace socsim {
namespace {

using f32::Rounding;

struct Case {
  std::string mnemonic;  // as written in the assembly, e.g. "fadd.s"
  int sources;           // float sources (1..3), or 0 for an integer source (fcvt.s.w)
  bool int_result;       // the result goes to an x register
  bool rounds;           // has an rm field
  std::function<uint32_t(uint32_t, uint32_t, uint32_t, Rounding, uint32_t*)> compute;
};

std::vector<Case> cases() {
  using namespace f32;
  return {
      {"fadd.s", 2, false, true,
       [](uint32_t a, uint32_t b, uint32_t, Rounding r, uint32_t* f) { return add(a, b, r, f); }},
      {"fsub.s", 2, false, true,
       [](uint32_t a, uint32_t b, uint32_t, Rounding r, uint32_t* f) { return sub(a, b, r, f); }},
      {"fmul.s", 2, false, true,
       [](uint32_t a, uint32_t b, uint32_t, Rounding r, uint32_t* f) { return mul(a, b, r, f); }},
      {"fdiv.s", 2, false, true,
       [](uint32_t a, uint32_t b, uint32_t, Rounding r, uint32_t* f) { return div(a, b, r, f); }},
      {"fsqrt.s", 1, false, true,
       [](uint32_t a, uint32_t, uint32_t, Rounding r, uint32_t* f) { return sqrt(a, r, f); }},
      {"fmadd.s", 3, false, true,
       [](uint32_t a, uint32_t b, uint32_t c, Rounding r, uint32_t* f) {
         return fma(a, b, c, false, false, r, f);
       }},
      {"fmsub.s", 3, false, true,
       [](uint32_t a, uint32_t b, uint32_t c, Rounding r, uint32_t* f) {
         return fma(a, b, c, false, true, r, f);
       }},
      {"fnmsub.s", 3, false, true,
       [](uint32_t a, uint32_t b, uint32_t c, Rounding r, uint32_t* f) {
         return fma(a, b, c, true, false, r, f);
       }},
      {"fnmadd.s", 3, false, true,
       [](uint32_t a, uint32_t b, uint32_t c, Rounding r, uint32_t* f) {
         return fma(a, b, c, true, true, r, f);
       }},
      {"fmin.s", 2, false, false,
       [](uint32_t a, uint32_t b, uint32_t, Rounding, uint32_t* f) { return min(a, b, f); }},
      {"fmax.s", 2, false, false,
       [](uint32_t a, uint32_t b, uint32_t, Rounding, uint32_t* f) { return max(a, b, f); }},
      {"feq.s", 2, true, false,
       [](uint32_t a, uint32_t b, uint32_t, Rounding, uint32_t* f) { return eq(a, b, f); }},
      {"flt.s", 2, true, false,
       [](uint32_t a, uint32_t b, uint32_t, Rounding, uint32_t* f) { return lt(a, b, f); }},
      {"fle.s", 2, true, false,
       [](uint32_t a, uint32_t b, uint32_t, Rounding, uint32_t* f) { return le(a, b, f); }},
      {"fclass.s", 1, true, false,
       [](uint32_t a, uint32_t, uint32_t, Rounding, uint32_t*) { return classify(a); }},
      {"fsgnj.s", 2, false, false,
       [](uint32_t a, uint32_t b, uint32_t, Rounding, uint32_t*) { return sign_inject(a, b); }},
      {"fsgnjn.s", 2, false, false,
       [](uint32_t a, uint32_t b, uint32_t, Rounding, uint32_t*) {
         return sign_inject_negated(a, b);
       }},
      {"fsgnjx.s", 2, false, false,
       [](uint32_t a, uint32_t b, uint32_t, Rounding, uint32_t*) { return sign_inject_xor(a, b); }},
      {"fcvt.w.s", 1, true, true,
       [](uint32_t a, uint32_t, uint32_t, Rounding r, uint32_t* f) { return to_int32(a, r, f); }},
      {"fcvt.wu.s", 1, true, true,
       [](uint32_t a, uint32_t, uint32_t, Rounding r, uint32_t* f) { return to_uint32(a, r, f); }},
      {"fcvt.s.w", 0, false, true,
       [](uint32_t a, uint32_t, uint32_t, Rounding r, uint32_t* f) { return from_int32(a, r, f); }},
      {"fcvt.s.wu", 0, false, true,
       [](uint32_t a, uint32_t, uint32_t, Rounding r, uint32_t* f) {
         return from_uint32(a, r, f);
       }},
  };
}

/// Operands: special values, subnormals, the range's edges, values close to one another (for
/// cancellation and ties), values whose products round to the smallest normal number
/// (tininess after rounding), integers for the conversions.
std::vector<uint32_t> operands(int count, uint32_t seed) {
  static const uint32_t kSpecial[] = {
      0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001,
      0xFFA00000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000,
      0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x3F800001, 0x33800000, 0x4B000000,
      0x4F000000, 0xCF000000, 0x4F800000, 0x3F000000, 0x00400000, 0x00800001, 0x7F000000,
      0x3FC00000, 0x40200000, 0xBE99999A, 0x4F7FFFFF};
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> v;
  uint32_t last = 0x3F800000;
  // Tininess after rounding: these products round up to 2^-126 only with the exponent's range
  // unbounded (UF clear) or are tiny (UF set), in the directed and the nearest modes.
  const uint32_t kEdges[][3] = {{0x3F800001, 0x807FFFFF, 0x00000000},
                                {0x007FFFFF, 0x3F800001, 0x80000000},
                                {0x3F800002, 0x007FFFFE, 0x00000000},
                                {0x3F7FFFFF, 0x00800001, 0x00000000}};
  for (const auto& e : kEdges) {
    if (static_cast<int>(v.size()) < 3 * count) v.insert(v.end(), e, e + 3);
  }
  while (static_cast<int>(v.size()) < 3 * count) {
    const uint32_t r = static_cast<uint32_t>(rng());
    switch (rng() % 10) {
      case 0:
        v.push_back(kSpecial[rng() % (sizeof kSpecial / sizeof kSpecial[0])]);
        break;
      case 1:
        v.push_back(r & 0x80FFFFFF);
        break;
      case 2:
        v.push_back((r & 0x807FFFFF) | 0x7E800000 | (r & 0x00800000));
        break;
      case 3:
        v.push_back((r & 0x807FF800) | ((120 + r % 16) << 23));
        break;
      case 4:
        v.push_back(last ^ (r & 0x8000000F));
        break;
      case 5:
        v.push_back(0x3F800000u | (r & 0x8000000F));
        break;  // 1 + a few ulps
      case 6:
        v.push_back((r & 0x80000000u) | 0x007FFF00u | (r & 0xFF));
        break;  // just below 2^-126
      default:
        v.push_back(last = r);
        break;
    }
  }
  return v;
}

int run(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') {
    std::fprintf(stderr, "usage: rv32f_conformance OUT.S [--count N] [--seed S] [--zfinx]\n");
    return 2;
  }
  int count = 64;
  uint32_t seed = 1;
  bool zfinx = false;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--count") && i + 1 < argc) {
      count = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = static_cast<uint32_t>(std::strtoul(argv[++i], nullptr, 0));
    } else if (!std::strcmp(argv[i], "--zfinx")) {
      zfinx = true;
    } else {
      std::fprintf(stderr, "rv32f_conformance: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if (count < 1 || count > 4096) {
    std::fprintf(stderr, "rv32f_conformance: --count must be 1..4096\n");
    return 2;
  }
  std::ofstream out(argv[1]);
  if (!out) {
    std::fprintf(stderr, "rv32f_conformance: cannot write %s\n", argv[1]);
    return 2;
  }
  const std::vector<uint32_t> ops = operands(count, seed);
  // Registers: F registers f1..f3 for the sources and f4 for the result, or (Zfinx) a4..a6
  // and a7; the loop state lives in s2..s7 (callee-saved, kept across the report calls).
  const char* src[3] = {zfinx ? "a4" : "f1", zfinx ? "a5" : "f2", zfinx ? "a6" : "f3"};
  const char* fdst = zfinx ? "a7" : "f4";
  const char* kRm[] = {"rne", "rtz", "rdn", "rup", "rmm"};
  out << "/* Generated by rv32f_conformance (seed " << seed << ", " << count
      << " operand triples): every RV32F instruction against rv32_float. */\n"
         "  .option norvc\n  .text\n  .globl test_main\ntest_main:\n"
         "  li t0, 0x2000\n  csrs mstatus, t0   /* FS = initial: float instructions legal */\n"
         "  li s7, 0           /* mismatches */\n  la s5, operands\n";
  std::string data;
  int id = 0;
  char line[256];
  for (const Case& c : cases()) {
    // Static modes 0..4, then the dynamic mode (rm = 7) with each frm value.
    const int variants = c.rounds ? 10 : 1;
    for (int v = 0; v < variants; ++v, ++id) {
      const bool dynamic = v >= 5;
      const Rounding rm = static_cast<Rounding>(c.rounds ? v % 5 : 0);
      std::snprintf(line, sizeof line, "expected_%d", id);
      data += std::string(line) + ":\n";
      for (int i = 0; i < count; ++i) {
        uint32_t flags = 0;
        const uint32_t r = c.compute(ops[3 * i], ops[3 * i + 1], ops[3 * i + 2], rm, &flags);
        std::snprintf(line, sizeof line, "  .word 0x%08x, 0x%x\n", r, flags);
        data += line;
      }
      out << "  /* case " << id << ": " << c.mnemonic;
      if (c.rounds) out << (dynamic ? " dyn, frm=" : " ") << kRm[rm];
      out << " */\n";
      std::snprintf(line, sizeof line,
                    "  li s6, %d\n  la s2, operands\n  la s3, expected_%d\n  li s4, %d\n", id, id,
                    count);
      out << line;
      if (dynamic) out << "  fsrmi " << int(rm) << "\n";
      out << "1:\n";
      for (int k = 0; k < 3; ++k) {
        if (c.sources == 0 && k == 0) {
          out << "  lw " << (zfinx ? src[0] : "a4") << ", 0(s2)\n";
        } else if (k < c.sources) {
          out << "  " << (zfinx ? "lw " : "flw ") << src[k] << ", " << 4 * k << "(s2)\n";
        }
      }
      out << "  csrwi fflags, 0\n  " << c.mnemonic << " ";
      out << (c.int_result ? "t0" : fdst);
      if (c.sources == 0) {
        out << ", " << (zfinx ? src[0] : "a4");
      } else {
        for (int k = 0; k < c.sources; ++k) out << ", " << src[k];
      }
      if (c.rounds) out << ", " << (dynamic ? "dyn" : kRm[rm]);
      out << "\n  frflags t1\n";
      if (!c.int_result) out << (zfinx ? "  mv t0, a7\n" : "  fmv.x.w t0, f4\n");
      out << "  lw t2, 0(s3)\n  lw t3, 4(s3)\n  bne t0, t2, 2f\n  beq t1, t3, 3f\n"
             "2:\n  mv a0, s6\n  sub a1, s2, s5\n  mv a2, t0\n  mv a3, t1\n  mv a4, t2\n"
             "  mv a5, t3\n  call fp_mismatch\n  addi s7, s7, 1\n"
             "3:\n  addi s2, s2, 12\n  addi s3, s3, 8\n  addi s4, s4, -1\n  bnez s4, 1b\n";
    }
  }
  std::snprintf(line, sizeof line, "%d", id);
  out << "  li a0, " << line << "\n  li a1, " << count << "\n  mv a2, s7\n  call fp_summary\n"
      << "  mv a0, s7\n  call exit_with\n"
      << "/* fp_mismatch(case, byte offset, got, got flags, want, want flags) */\n"
         "fp_mismatch:\n  addi sp, sp, -32\n  sw ra, 28(sp)\n  sw s0, 24(sp)\n  sw s1, 20(sp)\n"
         "  sw a1, 16(sp)\n  sw a2, 12(sp)\n  sw a3, 8(sp)\n  sw a4, 4(sp)\n  sw a5, 0(sp)\n"
         "  mv s0, a0\n  la a0, msg_case\n  call put_str\n  mv a0, s0\n  call put_dec\n"
         "  la a0, msg_index\n  call put_str\n  lw a0, 16(sp)\n  li t0, 12\n  divu a0, a0, t0\n"
         "  call put_dec\n  la a0, msg_got\n  call put_str\n  lw a0, 12(sp)\n  call put_hex\n"
         "  la a0, msg_flags\n  call put_str\n  lw a0, 8(sp)\n  call put_hex\n"
         "  la a0, msg_want\n  call put_str\n  lw a0, 4(sp)\n  call put_hex\n"
         "  la a0, msg_flags\n  call put_str\n  lw a0, 0(sp)\n  call put_hex\n"
         "  li a0, 10\n  call put_char\n"
         "  lw ra, 28(sp)\n  lw s0, 24(sp)\n  lw s1, 20(sp)\n  addi sp, sp, 32\n  ret\n"
         "/* fp_summary(cases, operands per case, mismatches) */\n"
         "fp_summary:\n  addi sp, sp, -16\n  sw ra, 12(sp)\n  sw s0, 8(sp)\n  sw s1, 4(sp)\n"
         "  mv s0, a1\n  mv s1, a2\n  mv t0, a0\n  la a0, msg_summary\n  sw t0, 0(sp)\n"
         "  call put_str\n  lw a0, 0(sp)\n  call put_dec\n  la a0, msg_times\n  call put_str\n"
         "  mv a0, s0\n  call put_dec\n  la a0, msg_operands\n  call put_str\n  mv a0, s1\n"
         "  call put_dec\n  la a0, msg_mismatches\n  call put_str\n"
         "  lw ra, 12(sp)\n  lw s0, 8(sp)\n  lw s1, 4(sp)\n  addi sp, sp, 16\n  ret\n"
         "  .section .rodata\n"
         "msg_case: .asciz \"rv32f mismatch: case \"\nmsg_index: .asciz \" operands \"\n"
         "msg_got: .asciz \": got \"\nmsg_flags: .asciz \" flags \"\n"
         "msg_want: .asciz \", expected \"\n"
         "msg_summary: .asciz \"rv32f conformance: \"\nmsg_times: .asciz \" cases x \"\n"
         "msg_operands: .asciz \" operand triples, \"\n"
         "msg_mismatches: .asciz \" mismatches\\n\"\n"
         "  .data\n  .balign 4\noperands:\n";
  for (int i = 0; i < count; ++i) {
    std::snprintf(line, sizeof line, "  .word 0x%08x, 0x%08x, 0x%08x\n", ops[3 * i], ops[3 * i + 1],
                  ops[3 * i + 2]);
    out << line;
  }
  out << data;
  return out.good() ? 0 : 2;
}

}  // namespace
}  // namespace socsim

int main(int argc, char** argv) {
  return socsim::run(argc, argv);
}

// The kernel cases written by scripts/socsim_aot/kernel_cases.py, as the tests of the CPU
// kernels (kernel_cases_test) and of the NPU layers (models/npu/test/) read them: the
// manifest's lines and the cases' files, from SOCSIM_KERNEL_CASES_DIR.
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

namespace socsim::test {

struct KernelCase {
  std::string name;
  double tolerance;  ///< 0: bit-exact; else relative to max(1, |expected|)
  std::string op;    ///< schema name of the operator
  int dtype;         ///< the kernel key: dtype code of the first input
  int npu;           ///< 1 when NAME.npu holds the case as an NPU layer

  /// NAME plus `suffix` (".prog", ".in", ".out", ".npu") in the cases' directory.
  std::string path(const char* suffix) const {
    return std::string(SOCSIM_KERNEL_CASES_DIR) + "/" + name + suffix;
  }
};

inline void PrintTo(const KernelCase& c, std::ostream* os) {
  *os << c.name;
}

inline std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline std::vector<KernelCase> read_kernel_cases() {
  std::vector<KernelCase> cases;
  std::ifstream in(std::string(SOCSIM_KERNEL_CASES_DIR) + "/manifest.txt");
  KernelCase c;
  while (in >> c.name >> c.tolerance >> c.op >> c.dtype >> c.npu) cases.push_back(c);
  return cases;
}

}  // namespace socsim::test

// Runs a program file on the host with the firmware runtime, kernels and delegates, for
// checking them against the numpy reference executor on whole models.
//
// Usage: socsim_host_runner PROGRAM [INPUT.bin] OUTPUT.bin [--num-executions N]
// PROGRAM is a socsim program file or an ExecuTorch program (.pte, recognised by its
// identifier). INPUT.bin holds every input's raw bytes in order (default: element i =
// i % 128); the outputs' raw bytes are written to OUTPUT.bin. Exit status 1 with a one-line
// message on any error (for a .pte file the message names the field, docs/executorch.md).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "firmware/runtime/method.h"
#include "firmware/runtime/program.h"
#include "firmware/runtime/pte_method.h"
#include "firmware/runtime/pte_program.h"

namespace {

using socsim::runtime::Error;

int fail(const std::string& what, Error error, const char* name = nullptr) {
  std::fprintf(stderr, "socsim_host_runner: %s: %s%s%s\n", what.c_str(),
               socsim::runtime::to_string(error), name ? " " : "", name ? name : "");
  return 1;
}

template <typename T>
void fill_default(void* data, uint32_t count) {
  T* p = static_cast<T*>(data);
  for (uint32_t i = 0; i < count; ++i) p[i] = static_cast<T>(i % 128);
}

/// "field[ index][: name]" of a .pte load or execute error.
std::string pte_where(const socsim::runtime::PteDiagnostics& d) {
  std::string s = d.field != nullptr ? d.field : "model";
  if (d.index != 0xFFFFFFFFu) s += " " + std::to_string(d.index);
  if (d.name != nullptr) s += ": " + std::string(d.name, d.name_length);
  return s;
}

int pte_fail(const std::string& file, socsim::runtime::Error error,
             const socsim::runtime::PteDiagnostics& d) {
  std::fprintf(stderr, "socsim_host_runner: %s: %s (error 0x%02x): %s\n", file.c_str(),
               socsim::runtime::to_string(error), static_cast<unsigned>(error),
               pte_where(d).c_str());
  return 1;
}

/// Host memory for one method: its planned buffers (16-byte aligned) and the method and temp
/// pools, with the MemoryManager over them.
struct HostMemory {
  template <typename MetaT>
  explicit HostMemory(const MetaT& meta)
      : planned(meta.num_memory_planned_buffers()), spans(planned.size()) {
    for (size_t i = 0; i < planned.size(); ++i) {
      const uint32_t bytes_needed = meta.memory_planned_buffer_size(static_cast<uint32_t>(i));
      planned[i].resize(bytes_needed / 8 + 2);
      spans[i].data = reinterpret_cast<uint8_t*>(planned[i].data());
      if (reinterpret_cast<uintptr_t>(spans[i].data) % 16 != 0) spans[i].data += 8;
      spans[i].size = bytes_needed;
    }
  }
  HostMemory(const HostMemory&) = delete;
  HostMemory& operator=(const HostMemory&) = delete;

  std::vector<std::vector<uint64_t>> planned;
  std::vector<socsim::runtime::Span> spans;
  std::vector<uint64_t> method_pool = std::vector<uint64_t>(1 << 19);  // 4 MiB: DenseNet-121 int8
  std::vector<uint64_t> temp_pool = std::vector<uint64_t>(1 << 15);
  socsim::runtime::MemoryAllocator method_alloc{method_pool.data(), method_pool.size() * 8};
  socsim::runtime::MemoryAllocator temp_alloc{temp_pool.data(), temp_pool.size() * 8};
  socsim::runtime::MemoryManager manager{&method_alloc, spans.data(), spans.size(), &temp_alloc};
};

/// Copies input `index`'s bytes from `feed` at *at (read from `file`). 0, or the exit code
/// after a message when the feed runs out.
template <typename MethodT>
int set_input_from(MethodT& method, uint32_t index, const std::vector<char>& feed, size_t* at,
                   const std::string& file) {
  const uint32_t nbytes = method.input(index)->nbytes;
  if (nbytes > feed.size() - *at) return fail(file, Error::kInvalidArgument);
  if (method.set_input(index, feed.data() + *at, nbytes) != Error::kOk) return 1;
  *at += nbytes;
  return 0;
}

/// Writes the outputs' raw bytes to `file` and prints the memory used; the exit code.
template <typename MethodT>
int write_outputs(const MethodT& method, const std::string& file, const HostMemory& memory,
                  uint32_t planned_bytes) {
  std::ofstream out(file, std::ios::binary);
  for (uint32_t i = 0; i < method.outputs_size(); ++i) {
    out.write(static_cast<const char*>(method.output(i)->data), method.output(i)->nbytes);
  }
  std::printf("method allocator %zu bytes, temp allocator %zu bytes, planned %u bytes\n",
              memory.method_alloc.high_water_mark(), memory.temp_alloc.high_water_mark(),
              planned_bytes);
  return out ? 0 : 1;
}

/// Runs an ExecuTorch program (the same steps as main() for socsim's format).
int run_pte(const std::vector<std::string>& files, const uint8_t* bytes, size_t size,
            int executions) {
  using namespace socsim::runtime;
  PteDiagnostics diag;
  Result<PteProgram> program = PteProgram::load(bytes, size, &diag);
  if (!program.ok()) return pte_fail(files[0], program.error(), diag);
  HostMemory memory(*program);
  Result<PteMethod> method = PteMethod::load(*program, memory.manager, &diag);
  if (!method.ok()) return pte_fail(files[0], method.error(), diag);
  std::vector<char> feed;
  if (files.size() == 3) {
    std::ifstream fin(files[1], std::ios::binary);
    if (!fin) {
      std::fprintf(stderr, "socsim_host_runner: cannot read %s\n", files[1].c_str());
      return 1;
    }
    feed.assign(std::istreambuf_iterator<char>(fin), {});
  }
  for (int run = 0; run < executions; ++run) {
    size_t at = 0;
    for (uint32_t i = 0; i < method->inputs_size(); ++i) {
      Tensor& t = *method->input(i);
      if (files.size() == 3) {
        if (const int code = set_input_from(*method, i, feed, &at, files[1])) return code;
      } else if (method->input_type(i) == static_cast<int8_t>(PteScalarType::kFloat)) {
        fill_default<float>(t.data, t.numel());
      } else if (method->input_type(i) == static_cast<int8_t>(PteScalarType::kInt)) {
        fill_default<int32_t>(t.data, t.numel());
      } else if (pte_element_size(method->input_type(i)) == 1) {
        fill_default<int8_t>(t.data, t.numel());
      } else {
        std::memset(t.data, 0, t.nbytes);
      }
    }
    const Error error = method->execute(&diag);
    if (error != Error::kOk) return pte_fail(files[0], error, diag);
  }
  const uint32_t planned_bytes =
      program->num_memory_planned_buffers() ? program->memory_planned_buffer_size(0) : 0;
  return write_outputs(*method, files.back(), memory, planned_bytes);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  int executions = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--num-executions") == 0 && i + 1 < argc) {
      executions = std::atoi(argv[++i]);
    } else {
      files.emplace_back(argv[i]);
    }
  }
  if (files.size() < 2 || files.size() > 3 || executions < 1) {
    std::fprintf(stderr,
                 "usage: socsim_host_runner PROGRAM [INPUT.bin] OUTPUT.bin "
                 "[--num-executions N]\n");
    return 2;
  }
  std::ifstream in(files[0], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "socsim_host_runner: cannot read %s\n", files[0].c_str());
    return 1;
  }
  const std::vector<char> raw(std::istreambuf_iterator<char>(in), {});
  std::vector<uint64_t> storage(raw.size() / 8 + 2);  // 16-byte aligned on this host
  auto* bytes = reinterpret_cast<uint8_t*>(storage.data());
  if (reinterpret_cast<uintptr_t>(bytes) % 16 != 0) bytes += 8;
  std::memcpy(bytes, raw.data(), raw.size());

  if (socsim::runtime::PteProgram::has_identifier(bytes, raw.size())) {
    return run_pte(files, bytes, raw.size(), executions);
  }
  using namespace socsim::runtime;
  Result<Program> program = Program::load(bytes, raw.size());
  if (!program.ok()) return fail(files[0], program.error());
  const MethodMeta meta = program->method_meta();
  HostMemory memory(meta);
  MethodDiagnostics diag;
  Result<Method> method = Method::load(*program, memory.manager, &diag);
  if (!method.ok()) {
    const std::string what = diag.name == nullptr
                                 ? files[0]
                                 : files[0] + ": " + diag.name + " (" + to_string(diag.dtype) + ")";
    return fail(what, method.error());
  }

  std::vector<char> feed;
  if (files.size() == 3) {
    std::ifstream fin(files[1], std::ios::binary);
    feed.assign(std::istreambuf_iterator<char>(fin), {});
  }
  for (int run = 0; run < executions; ++run) {
    size_t at = 0;
    for (uint32_t i = 0; i < method->inputs_size(); ++i) {
      Tensor& t = *method->input(i);
      if (files.size() == 3) {
        if (const int code = set_input_from(*method, i, feed, &at, files[1])) return code;
      } else if (t.dtype == ScalarType::kFloat32) {
        fill_default<float>(t.data, t.numel());
      } else if (t.dtype == ScalarType::kInt32) {
        fill_default<int32_t>(t.data, t.numel());
      } else {
        fill_default<int8_t>(t.data, t.numel());
      }
    }
    const Error error = method->execute(&diag);
    if (error != Error::kOk) {
      return fail(files[0] + ": instruction " + std::to_string(diag.instruction), error, diag.name);
    }
  }
  return write_outputs(*method, files.back(), memory,
                       meta.num_memory_planned_buffers() ? meta.memory_planned_buffer_size(0) : 0);
}

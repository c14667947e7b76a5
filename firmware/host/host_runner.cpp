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

/// Runs an ExecuTorch program (the same steps as main() for socsim's format).
int run_pte(const std::vector<std::string>& files, const uint8_t* bytes, size_t size,
            int executions) {
  using namespace socsim::runtime;
  PteDiagnostics diag;
  Result<PteProgram> program = PteProgram::load(bytes, size, &diag);
  if (!program.ok()) return pte_fail(files[0], program.error(), diag);
  std::vector<std::vector<uint64_t>> planned(program->num_memory_planned_buffers());
  std::vector<Span> spans(planned.size());
  for (size_t i = 0; i < planned.size(); ++i) {
    const uint32_t bytes_needed = program->memory_planned_buffer_size(static_cast<uint32_t>(i));
    planned[i].resize(bytes_needed / 8 + 2);
    spans[i].data = reinterpret_cast<uint8_t*>(planned[i].data());
    if (reinterpret_cast<uintptr_t>(spans[i].data) % 16 != 0) spans[i].data += 8;
    spans[i].size = bytes_needed;
  }
  std::vector<uint64_t> method_pool(1 << 17), temp_pool(1 << 15);
  MemoryAllocator method_alloc(method_pool.data(), method_pool.size() * 8);
  MemoryAllocator temp_alloc(temp_pool.data(), temp_pool.size() * 8);
  MemoryManager manager{&method_alloc, spans.data(), spans.size(), &temp_alloc};
  Result<PteMethod> method = PteMethod::load(*program, manager, &diag);
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
        if (t.nbytes > feed.size() - at) return fail(files[1], Error::kInvalidArgument);
        if (method->set_input(i, feed.data() + at, t.nbytes) != Error::kOk) return 1;
        at += t.nbytes;
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
  std::ofstream out(files.back(), std::ios::binary);
  for (uint32_t i = 0; i < method->outputs_size(); ++i) {
    out.write(static_cast<const char*>(method->output(i)->data), method->output(i)->nbytes);
  }
  std::printf("method allocator %zu bytes, temp allocator %zu bytes, planned %u bytes\n",
              method_alloc.high_water_mark(), temp_alloc.high_water_mark(),
              program->num_memory_planned_buffers() ? program->memory_planned_buffer_size(0) : 0);
  return out ? 0 : 1;
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
  std::vector<std::vector<uint64_t>> planned(meta.num_memory_planned_buffers());
  std::vector<Span> spans(planned.size());
  for (size_t i = 0; i < planned.size(); ++i) {
    planned[i].resize(meta.memory_planned_buffer_size(i) / 8 + 2);
    spans[i].data = reinterpret_cast<uint8_t*>(planned[i].data());
    if (reinterpret_cast<uintptr_t>(spans[i].data) % 16 != 0) spans[i].data += 8;
    spans[i].size = meta.memory_planned_buffer_size(i);
  }
  std::vector<uint64_t> method_pool(1 << 17), temp_pool(1 << 15);
  MemoryAllocator method_alloc(method_pool.data(), method_pool.size() * 8);
  MemoryAllocator temp_alloc(temp_pool.data(), temp_pool.size() * 8);
  MemoryManager manager{&method_alloc, spans.data(), spans.size(), &temp_alloc};
  MethodDiagnostics diag;
  Result<Method> method = Method::load(*program, manager, &diag);
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
        if (at + t.nbytes > feed.size()) return fail(files[1], Error::kInvalidArgument);
        if (method->set_input(i, feed.data() + at, t.nbytes) != Error::kOk) return 1;
        at += t.nbytes;
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
  std::ofstream out(files.back(), std::ios::binary);
  for (uint32_t i = 0; i < method->outputs_size(); ++i) {
    out.write(static_cast<const char*>(method->output(i)->data), method->output(i)->nbytes);
  }
  std::printf("method allocator %zu bytes, temp allocator %zu bytes, planned %u bytes\n",
              method_alloc.high_water_mark(), temp_alloc.high_water_mark(),
              meta.num_memory_planned_buffers() ? meta.memory_planned_buffer_size(0) : 0);
  return out ? 0 : 1;
}

// The .pte reader and executor on the checked-in ExecuTorch programs (tests/runtime/pte/,
// written by scripts/gen_pte_fixtures.py): outputs against ExecuTorch's portable runtime,
// and malformed files (truncations, bit flips, huge counts and offsets) refused cleanly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "firmware/runtime/backend_registry.h"
#include "firmware/runtime/pte_method.h"
#include "firmware/runtime/pte_program.h"

namespace socsim::runtime {
namespace {

/// A fixture of tests/runtime/pte/, or of tests/runtime/pte_compiled/ ("compiled/NAME": the
/// compiler's own .pte programs, scripts/gen_pte_compiled_fixtures.py).
std::string fixture(const std::string& name) {
  const std::string compiled = "compiled/";
  if (name.compare(0, compiled.size(), compiled) == 0) {
    return std::string(SOCSIM_PTE_COMPILED_DIR) + "/" + name.substr(compiled.size());
  }
  return std::string(SOCSIM_PTE_FIXTURES_DIR) + "/" + name;
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

/// 16-byte aligned copy of a file's bytes.
class Aligned {
 public:
  explicit Aligned(const std::vector<uint8_t>& bytes) : words_(bytes.size() / 8 + 3) {
    data_ = reinterpret_cast<uint8_t*>(words_.data());
    if (reinterpret_cast<uintptr_t>(data_) % 16 != 0) data_ += 8;
    if (!bytes.empty()) std::memcpy(data_, bytes.data(), bytes.size());
    size_ = bytes.size();
  }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  std::vector<uint64_t> words_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

/// Memory for one method: planned buffers as the program asks, generous pools.
struct Memory {
  explicit Memory(const PteProgram& program)
      : method_pool(1 << 15),
        temp_pool(1 << 10),
        method(method_pool.data(), 8 * method_pool.size()),
        temp(temp_pool.data(), 8 * temp_pool.size()) {
    const uint32_t n = program.num_memory_planned_buffers();
    planned.resize(n);
    spans.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      planned[i].resize(program.memory_planned_buffer_size(i) / 8 + 1);
      spans[i].data = reinterpret_cast<uint8_t*>(planned[i].data());
      spans[i].size = program.memory_planned_buffer_size(i);
    }
    manager = MemoryManager{&method, spans.data(), spans.size(), &temp};
  }
  std::vector<uint64_t> method_pool, temp_pool;
  std::vector<std::vector<uint64_t>> planned;
  std::vector<Span> spans;
  MemoryAllocator method, temp;
  MemoryManager manager;
};

struct Entry {
  std::string name;
  std::vector<std::string> outputs;  // "float32:1x10"
  std::string operators;
};

/// The fixtures' manifest (name | bytes | inputs | outputs | operators).
std::vector<Entry> manifest() {
  std::ifstream in(fixture("manifest.txt"));
  EXPECT_TRUE(in.good());
  std::vector<Entry> entries;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, '|')) {
      const size_t a = col.find_first_not_of(' '), b = col.find_last_not_of(' ');
      cols.push_back(a == std::string::npos ? "" : col.substr(a, b - a + 1));
    }
    if (cols.size() != 5) continue;
    Entry e{cols[0], {}, cols[4]};
    std::stringstream outs(cols[3]);
    while (std::getline(outs, col, ';')) e.outputs.push_back(col);
    entries.push_back(e);
  }
  return entries;
}

/// Loads and runs a fixture; returns the outputs' bytes, or fails the test.
std::vector<uint8_t> run_fixture(const std::string& name, PteMethod* keep = nullptr) {
  Aligned bytes(read_file(fixture(name + ".pte")));
  PteDiagnostics diag;
  Result<PteProgram> program = PteProgram::load(bytes.data(), bytes.size(), &diag);
  EXPECT_TRUE(program.ok()) << to_string(program.error()) << " " << (diag.field ? diag.field : "");
  if (!program.ok()) return {};
  Memory memory(*program);
  Result<PteMethod> method = PteMethod::load(*program, memory.manager, &diag);
  EXPECT_TRUE(method.ok()) << name << ": " << to_string(method.error()) << " "
                           << (diag.field ? diag.field : "") << " " << diag.index << " "
                           << (diag.name ? std::string(diag.name, diag.name_length) : "");
  if (!method.ok()) return {};
  const std::vector<uint8_t> input = read_file(fixture(name + ".input.bin"));
  size_t at = 0;
  for (uint32_t i = 0; i < method->inputs_size(); ++i) {
    const uint32_t n = method->input(i)->nbytes;
    EXPECT_LE(at + n, input.size());
    EXPECT_EQ(method->set_input(i, input.data() + at, n), Error::kOk);
    at += n;
  }
  EXPECT_EQ(at, input.size()) << "the input file holds exactly the inputs";
  const Error error = method->execute(&diag);
  EXPECT_EQ(error, Error::kOk) << to_string(error) << " at instruction " << diag.index;
  std::vector<uint8_t> out;
  for (uint32_t i = 0; i < method->outputs_size(); ++i) {
    const auto* p = static_cast<const uint8_t*>(method->output(i)->data);
    out.insert(out.end(), p, p + method->output(i)->nbytes);
  }
  (void)keep;
  return out;
}

bool delegated(const Entry& e) {
  return e.operators.find("delegate:") != std::string::npos;
}

TEST(PteFixtures, ManifestListsThePrograms) {
  std::vector<std::string> names;
  for (const Entry& e : manifest()) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"add", "add8", "convnet_f32", "convnet_int8",
                                             "add_xnnpack", "encoder_f32", "encoder_int8",
                                             "lstm_f32", "gru_f32", "mbblock_f32",
                                             "mbblock_int8", "mbv3block_f32",
                                             "poolgelu_f32", "adaptivepool_f32",
                                             "adaptivepool_int8", "cnblock_f32",
                                             "cnblock_int8", "poolstats_f32"}));
}

/// Bytes of one output of the manifest ("float32:1x10", "int64:1x3x4x4").
size_t output_bytes(const std::string& spec) {
  const std::string type = spec.substr(0, spec.find(':'));
  const std::map<std::string, size_t> sizes = {{"float32", 4}, {"int8", 1}, {"uint8", 1},
                                               {"bool", 1},    {"int32", 4}, {"int64", 8}};
  size_t n = sizes.count(type) != 0 ? sizes.at(type) : 0;
  std::stringstream dims(spec.substr(spec.find(':') + 1));
  std::string d;
  while (std::getline(dims, d, 'x')) n *= d == "scalar" ? 1 : std::stoul(d);
  return n;
}

// The programs without delegates, on the runtime's own operators: every output, integers
// exactly, float32 within 1e-5 of the output's largest reference value.
TEST(PteFixtures, OutputsMatchThePortableRuntime) {
  for (const Entry& e : manifest()) {
    if (delegated(e)) continue;
    SCOPED_TRACE(e.name);
    const std::vector<uint8_t> got = run_fixture(e.name);
    const std::vector<uint8_t> want = read_file(fixture(e.name + ".expected.bin"));
    ASSERT_EQ(got.size(), want.size());
    size_t at = 0;
    for (size_t k = 0; k < e.outputs.size(); ++k) {
      const size_t bytes = output_bytes(e.outputs[k]);
      ASSERT_GT(bytes, 0u) << e.outputs[k];
      ASSERT_LE(at + bytes, want.size()) << e.outputs[k];
      const std::string type = e.outputs[k].substr(0, e.outputs[k].find(':'));
      if (type == "float32") {
        const size_t n = bytes / 4;
        std::vector<float> g(n), w(n);
        std::memcpy(g.data(), got.data() + at, 4 * n);
        std::memcpy(w.data(), want.data() + at, 4 * n);
        float largest = 0;
        for (float v : w) largest = std::max(largest, std::fabs(v));
        ASSERT_GT(largest, 0.0f) << "an all-zero reference would compare nothing";
        double max_diff = 0;
        for (size_t i = 0; i < n; ++i) {
          max_diff = std::max(max_diff, static_cast<double>(std::fabs(g[i] - w[i])));
        }
        EXPECT_LE(max_diff, 1e-5 * largest) << "output " << k << ", largest " << largest;
        std::printf("%s output %zu: %zu float32, max abs diff %.3g (largest output %.6g)\n",
                    e.name.c_str(), k, n, max_diff, largest);
      } else {
        EXPECT_TRUE(std::equal(got.begin() + at, got.begin() + at + bytes, want.begin() + at))
            << "output " << k << " (" << type << "): integer outputs match exactly";
        std::printf("%s output %zu: %zu %s bytes, identical\n", e.name.c_str(), k, bytes,
                    type.c_str());
      }
      at += bytes;
    }
    EXPECT_EQ(at, want.size()) << "the manifest's outputs cover the expected file";
  }
}

TEST(PteFixtures, OperatorsOfTheManifestAreKnown) {
  for (const Entry& e : manifest()) {
    std::stringstream ss(e.operators);
    std::string op;
    while (std::getline(ss, op, ',')) {
      if (op.rfind("delegate:", 0) == 0) continue;
      bool known = false;
      for (uint32_t i = 0; i < pte_operator_count(); ++i) known |= op == pte_operator_name(i);
      EXPECT_TRUE(known) << e.name << ": " << op;
    }
  }
}

// add_xnnpack: one DelegateCall to ExecuTorch's XNNPACK backend, whose processed data (an
// XNNPACK flatbuffer, "XH00" at byte 4) is segment 1. Without such a backend the method load
// names it; a stand-in registered under its id gets the blob and the call's tensors.
TEST(PteDelegates, AMissingBackendIsNamed) {
  Aligned bytes(read_file(fixture("add_xnnpack.pte")));
  Result<PteProgram> program = PteProgram::load(bytes.data(), bytes.size());
  ASSERT_TRUE(program.ok());
  Memory memory(*program);
  PteDiagnostics diag;
  Result<PteMethod> method = PteMethod::load(*program, memory.manager, &diag);
  ASSERT_FALSE(method.ok());
  EXPECT_EQ(method.error(), Error::kDelegateMissing);
  ASSERT_NE(diag.name, nullptr);
  EXPECT_EQ(std::string(diag.name, diag.name_length), "XnnpackBackend");
  EXPECT_STREQ(diag.field, "BackendDelegate.id");
  EXPECT_EQ(diag.index, 0u);
}

struct StandIn {
  static inline std::vector<uint8_t> blob;
  static inline uint32_t inputs = 0, outputs = 0, executions = 0;
  static bool available() { return true; }
  static Error init(const BackendInitContext&, const uint8_t* data, size_t size, void** handle) {
    blob.assign(data, data + size);
    *handle = &blob;
    return Error::kOk;
  }
  // The stand-in computes what the XNNPACK graph does: out = a + b (float32).
  static Error execute(const BackendExecuteContext&, void*, Tensor* const* args, uint32_t in,
                       uint32_t out) {
    inputs = in;
    outputs = out;
    ++executions;
    if (in != 2 || out != 1 || !args[0]->same_shape(*args[2])) return Error::kShapeMismatch;
    for (uint32_t i = 0; i < args[2]->numel(); ++i) {
      args[2]->data_as<float>()[i] = args[0]->data_as<float>()[i] + args[1]->data_as<float>()[i];
    }
    return Error::kOk;
  }
  static void destroy(void*) {}
};
const Backend kStandIn{"XnnpackBackend", StandIn::available, StandIn::init, StandIn::execute,
                       StandIn::destroy};

TEST(PteDelegates, TheDelegateCallReachesTheBackend) {
  if (find_backend("XnnpackBackend", 14) == nullptr) {
    ASSERT_EQ(register_backend(&kStandIn), Error::kOk);
  }
  const std::vector<uint8_t> file = read_file(fixture("add_xnnpack.pte"));
  const std::vector<uint8_t> got = run_fixture("add_xnnpack");
  EXPECT_EQ(got, read_file(fixture("add_xnnpack.expected.bin")));
  EXPECT_EQ(StandIn::inputs, 2u);
  EXPECT_EQ(StandIn::outputs, 1u);
  EXPECT_EQ(StandIn::executions, 1u);
  // The blob handed to init is the program's segment 1 (after the segment base).
  uint64_t base = 0;
  std::memcpy(&base, file.data() + 24, 8);
  ASSERT_EQ(StandIn::blob.size(), 432u);
  EXPECT_EQ(std::string(StandIn::blob.begin() + 4, StandIn::blob.begin() + 8), "XH00");
  EXPECT_TRUE(std::equal(StandIn::blob.begin(), StandIn::blob.end(), file.begin() + base));
}

// ---- operators on element types the kernels do not have: their bytes move through the
// data-movement kernels as uint8 with one more axis (int64), or as uint8 (bool) ----------

/// The values of one operator call, built by hand, and the call prepared from them.
class OpBench {
 public:
  OpBench() : pool_(1 << 13), alloc_(pool_.data(), 8 * pool_.size()) { values_.reserve(32); }

  uint32_t tensor(PteScalarType type, std::vector<int32_t> sizes, void* data) {
    Tensor* t = alloc_.allocate_array<Tensor>(1);
    t->dtype = type == PteScalarType::kFloat ? ScalarType::kFloat32 : ScalarType::kUInt8;
    t->rank = static_cast<uint32_t>(sizes.size());
    uint32_t n = pte_element_size(static_cast<int8_t>(type));
    for (size_t d = 0; d < sizes.size(); ++d) {
      t->sizes[d] = sizes[d];
      n *= static_cast<uint32_t>(sizes[d]);
    }
    t->data = data;
    t->nbytes = n;
    PteValue v;
    v.kind = PteValueKind::kTensor;
    v.dtype = static_cast<int8_t>(type);
    v.tensor = t;
    return add(v);
  }
  uint32_t integer(int64_t i) {
    PteValue v;
    v.kind = PteValueKind::kInt;
    v.i = i;
    return add(v);
  }
  uint32_t boolean(bool b) {
    PteValue v;
    v.kind = PteValueKind::kBool;
    v.i = b ? 1 : 0;
    return add(v);
  }
  uint32_t int_list(std::vector<int64_t> items) {
    lists_.push_back(std::move(items));
    PteValue v;
    v.kind = PteValueKind::kIntList;
    v.list.data = reinterpret_cast<const uint8_t*>(lists_.back().data());
    v.list.count = static_cast<uint32_t>(lists_.back().size());
    return add(v);
  }
  uint32_t tensor_list(std::vector<int32_t> indices) {
    indices_.push_back(std::move(indices));
    PteValue v;
    v.kind = PteValueKind::kTensorList;
    v.list.data = reinterpret_cast<const uint8_t*>(indices_.back().data());
    v.list.count = static_cast<uint32_t>(indices_.back().size());
    return add(v);
  }
  /// Prepares and runs `name`.`overload` on `args` (the last one the return value).
  Error run(const char* name, const char* overload, std::vector<uint32_t> args) {
    PteOpContext ctx;
    ctx.values = values_.data();
    ctx.value_count = static_cast<uint32_t>(values_.size());
    ctx.allocator = &alloc_;
    ctx.temp = &alloc_;
    PteOpCall call;
    SOCSIM_RT_TRY(pte_prepare_operator(ctx, name, static_cast<uint32_t>(strlen(name)), overload,
                                       static_cast<uint32_t>(strlen(overload)), args.data(),
                                       static_cast<uint32_t>(args.size()), &call));
    return call.run(call);
  }

 private:
  uint32_t add(const PteValue& v) {
    values_.push_back(v);
    return static_cast<uint32_t>(values_.size() - 1);
  }
  std::vector<uint64_t> pool_;
  MemoryAllocator alloc_;
  std::vector<PteValue> values_;
  std::vector<std::vector<int64_t>> lists_;
  std::vector<std::vector<int32_t>> indices_;
};

TEST(PteOperators, Int64AndBoolMoveAsBytes) {
  const int64_t big = int64_t{1} << 40;
  {  // full.out: int64 and bool
    int64_t y[6] = {};
    OpBench b;
    const uint32_t out = b.tensor(PteScalarType::kLong, {2, 3}, y);
    ASSERT_EQ(b.run("aten::full", "out", {b.int_list({2, 3}), b.integer(big + 7), out, out}),
              Error::kOk);
    for (int64_t v : y) EXPECT_EQ(v, big + 7);
    uint8_t flags[5] = {9, 9, 9, 9, 9};
    OpBench c;
    const uint32_t f = c.tensor(PteScalarType::kBool, {5}, flags);
    ASSERT_EQ(c.run("aten::full", "out", {c.int_list({5}), c.integer(3), f, f}), Error::kOk);
    for (uint8_t v : flags) EXPECT_EQ(v, 1);
  }
  {  // expand_copy.out: int64 [1, 3] to [2, 3]
    int64_t x[3] = {-1, big, 5};
    int64_t y[6] = {};
    OpBench b;
    const uint32_t out = b.tensor(PteScalarType::kLong, {2, 3}, y);
    ASSERT_EQ(b.run("aten::expand_copy", "out",
                    {b.tensor(PteScalarType::kLong, {1, 3}, x), b.int_list({2, -1}),
                     b.boolean(false), out, out}),
              Error::kOk);
    EXPECT_EQ(std::vector<int64_t>(y, y + 6), (std::vector<int64_t>{-1, big, 5, -1, big, 5}));
  }
  {  // select_copy.int_out: the last column of an int64 [2, 3]
    int64_t x[6] = {1, 2, big, 4, 5, -big};
    int64_t y[2] = {};
    OpBench b;
    const uint32_t out = b.tensor(PteScalarType::kLong, {2}, y);
    ASSERT_EQ(b.run("aten::select_copy", "int_out",
                    {b.tensor(PteScalarType::kLong, {2, 3}, x), b.integer(1), b.integer(-1), out,
                     out}),
              Error::kOk);
    EXPECT_EQ(y[0], big);
    EXPECT_EQ(y[1], -big);
  }
  {  // split_with_sizes_copy.out: bool [2, 5] into [2, 2] and [2, 3]
    uint8_t x[10] = {1, 0, 0, 1, 1, 0, 1, 1, 0, 0};
    uint8_t y0[4] = {}, y1[6] = {};
    OpBench b;
    const uint32_t in = b.tensor(PteScalarType::kBool, {2, 5}, x);
    const uint32_t o0 = b.tensor(PteScalarType::kBool, {2, 2}, y0);
    const uint32_t o1 = b.tensor(PteScalarType::kBool, {2, 3}, y1);
    const uint32_t outs = b.tensor_list({static_cast<int32_t>(o0), static_cast<int32_t>(o1)});
    ASSERT_EQ(b.run("aten::split_with_sizes_copy", "out",
                    {in, b.int_list({2, 3}), b.integer(1), outs, outs}),
              Error::kOk);
    EXPECT_EQ(std::vector<uint8_t>(y0, y0 + 4), (std::vector<uint8_t>{1, 0, 0, 1}));
    EXPECT_EQ(std::vector<uint8_t>(y1, y1 + 6), (std::vector<uint8_t>{0, 1, 1, 1, 0, 0}));
  }
  {  // as_strided_copy.out: int64 [6] as [2, 2], strides (3, 1), offset 1
    int64_t x[6] = {0, 1, 2, big, 4, 5};
    int64_t y[4] = {};
    OpBench b;
    const uint32_t out = b.tensor(PteScalarType::kLong, {2, 2}, y);
    ASSERT_EQ(b.run("aten::as_strided_copy", "out",
                    {b.tensor(PteScalarType::kLong, {6}, x), b.int_list({2, 2}),
                     b.int_list({3, 1}), b.integer(1), out, out}),
              Error::kOk);
    EXPECT_EQ(std::vector<int64_t>(y, y + 4), (std::vector<int64_t>{1, 2, 4, 5}));
  }
}

TEST(PteOperators, BadArgumentsAreRefusedAtLoad) {
  float x[6] = {};
  float y[4] = {};
  {  // a strided view reaching past self's storage
    OpBench b;
    const uint32_t out = b.tensor(PteScalarType::kFloat, {2, 2}, y);
    EXPECT_EQ(b.run("aten::as_strided_copy", "out",
                    {b.tensor(PteScalarType::kFloat, {6}, x), b.int_list({2, 2}),
                     b.int_list({3, 1}), b.integer(2), out, out}),
              Error::kBadOperatorArgs);
  }
  {  // an output_size other than the output's
    OpBench b;
    const uint32_t out = b.tensor(PteScalarType::kFloat, {1, 1, 2, 2}, y);
    EXPECT_EQ(b.run("aten::_adaptive_avg_pool2d", "out",
                    {b.tensor(PteScalarType::kFloat, {1, 1, 2, 3}, x), b.int_list({1, 2}), out,
                     out}),
              Error::kShapeMismatch);
  }
}

TEST(PteProgram, RecognisesTheIdentifier) {
  const std::vector<uint8_t> bytes = read_file(fixture("add.pte"));
  EXPECT_TRUE(PteProgram::has_identifier(bytes.data(), bytes.size()));
  EXPECT_EQ(std::string(bytes.begin() + 4, bytes.begin() + 8), "ET12");
  std::vector<uint8_t> other = bytes;
  other[7] = '3';  // ET13: a .pte of another version
  Aligned a(other);
  PteDiagnostics diag;
  Result<PteProgram> p = PteProgram::load(a.data(), a.size(), &diag);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error(), Error::kProgramBadVersion);
  EXPECT_STREQ(diag.field, "file identifier");
}

TEST(PteProgram, ConstantsComeFromTheConstantSegment) {
  const std::vector<uint8_t> bytes = read_file(fixture("convnet_f32.pte"));
  ASSERT_GT(bytes.size(), 48u);
  EXPECT_EQ(std::string(bytes.begin() + 8, bytes.begin() + 12), "eh00");
  Aligned a(bytes);
  Result<PteProgram> p = PteProgram::load(a.data(), a.size());
  ASSERT_TRUE(p.ok());
  const uint8_t* data = nullptr;
  EXPECT_EQ(p->constant_data(0, 4, &data), Error::kProgramOutOfBounds) << "entry 0 is reserved";
  EXPECT_EQ(p->constant_data(1, 4, &data), Error::kOk);
  EXPECT_EQ(p->constant_data(1, 1u << 30, &data), Error::kProgramOutOfBounds);
  EXPECT_EQ(p->constant_data(100000, 4, &data), Error::kProgramOutOfBounds);
}

/// Loads, and if that works runs, a (mutated) program: the outcome, never a fault.
Error try_program(const std::vector<uint8_t>& bytes, const std::vector<uint8_t>& input,
                  PteDiagnostics* diag) {
  Aligned a(bytes);
  Result<PteProgram> program = PteProgram::load(a.data(), a.size(), diag);
  if (!program.ok()) return program.error();
  for (uint32_t i = 0; i < program->num_memory_planned_buffers(); ++i) {
    // The test's own limit (a deployed runner would refuse a buffer its pools cannot hold).
    if (program->memory_planned_buffer_size(i) > (1u << 24)) {
      return pte_fail(diag, Error::kPlannedMemoryTooSmall, "planned buffer (over 16 MiB)", i);
    }
  }
  Memory memory(*program);
  Result<PteMethod> method = PteMethod::load(*program, memory.manager, diag);
  if (!method.ok()) return method.error();
  size_t at = 0;
  for (uint32_t i = 0; i < method->inputs_size(); ++i) {
    const uint32_t n = method->input(i)->nbytes;
    if (at + n <= input.size()) {
      EXPECT_EQ(method->set_input(i, input.data() + at, n), Error::kOk);
    } else {
      std::memset(method->input(i)->data, 0, n);
    }
    at += n;
  }
  return method->execute(diag);
}

const char* const kFixtures[] = {"add",          "add8",     "convnet_f32", "convnet_int8",
                                 "add_xnnpack",  "encoder_int8", "lstm_f32", "gru_f32",
                                 "mbblock_f32",  "mbv3block_f32", "poolgelu_f32",
                                 "adaptivepool_int8", "cnblock_f32", "poolstats_f32", "compiled/small_f32",
                                 "compiled/small_int8", "compiled/small_int8_out"};

// ---- the compiler's .pte programs (socsim:: operators) --------------------------------------

TEST(PteCompiled, OutputsEqualTheProgRun) {
  for (const char* name : {"small_f32", "small_int8", "small_int8_out"}) {
    const std::string path = std::string("compiled/") + name;
    const std::vector<uint8_t> got = run_fixture(path);
    EXPECT_EQ(got.size(), std::string(name) == "small_int8_out" ? 5u : 20u) << name;
    EXPECT_EQ(got, read_file(fixture(path + ".expected.bin"))) << name << ": bit for bit";
  }
}

TEST(PteCompiled, TheOutputsQuantisationComesFromTheRecord) {
  const std::vector<uint8_t> file = read_file(fixture("compiled/small_int8_out.pte"));
  Aligned a(file);
  Result<PteProgram> program = PteProgram::load(a.data(), a.size());
  ASSERT_TRUE(program.ok());
  Memory memory(*program);
  Result<PteMethod> method = PteMethod::load(*program, memory.manager);
  ASSERT_TRUE(method.ok());
  ASSERT_EQ(method->outputs_size(), 1u);
  const Tensor& y = *method->output(0);
  EXPECT_EQ(y.dtype, ScalarType::kInt8);
  EXPECT_EQ(y.quant.kind, QuantKind::kPerTensor);
  EXPECT_GT(y.quant.scale, 0.0f);
  EXPECT_EQ(run_fixture("compiled/small_int8_out"),
            read_file(fixture("compiled/small_int8_out.expected.bin")));
  // The record's version made wrong: the method load names the record.
  std::vector<uint8_t> bad = file;
  const char magic[] = "SQNT";
  auto at = std::search(bad.begin(), bad.end(), magic, magic + 4);
  ASSERT_NE(at, bad.end());
  at[4] = 9;
  Aligned b(bad);
  PteDiagnostics diag;
  Result<PteProgram> again = PteProgram::load(b.data(), b.size(), &diag);
  ASSERT_TRUE(again.ok());
  Memory memory2(*again);
  Result<PteMethod> refused = PteMethod::load(*again, memory2.manager, &diag);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error(), Error::kProgramBadTensor);
  ASSERT_NE(diag.field, nullptr);
  EXPECT_STREQ(diag.field, "socsim.quantization (header)");
}

TEST(PteCompiled, AnUnknownSocsimOperatorIsNamed) {
  std::vector<uint8_t> bytes = read_file(fixture("compiled/small_int8.pte"));
  const std::string op = "socsim::quantized_decomposed__convolution";
  auto at = std::search(bytes.begin(), bytes.end(), op.begin(), op.end());
  ASSERT_NE(at, bytes.end());
  at[op.size() - 1] = 'X';  // ...convolutioX
  Aligned a(bytes);
  PteDiagnostics diag;
  Result<PteProgram> program = PteProgram::load(a.data(), a.size(), &diag);
  ASSERT_TRUE(program.ok());
  Memory memory(*program);
  Result<PteMethod> method = PteMethod::load(*program, memory.manager, &diag);
  ASSERT_FALSE(method.ok());
  EXPECT_EQ(method.error(), Error::kOperatorMissing);
  ASSERT_NE(diag.name, nullptr);
  EXPECT_EQ(std::string(diag.name, diag.name_length), op.substr(0, op.size() - 1) + "X");
}

TEST(PteCompiled, AnArgumentWordBeyondInt32IsRefused) {
  std::vector<uint8_t> bytes = read_file(fixture("compiled/small_int8.pte"));
  Aligned a(bytes);
  Result<PteProgram> program = PteProgram::load(a.data(), a.size());
  ASSERT_TRUE(program.ok());
  // Every Int value 0 becomes 2^31: some call's argument list then holds it.
  uint32_t changed = 0;
  for (uint32_t v = 0; v < program->values().size(); ++v) {
    pte::FbTable entry, body;
    uint32_t pos = 0;
    ASSERT_EQ(program->values().target(v, &pos), Error::kOk);
    ASSERT_EQ(pte::FbTable::at(program->file(), pos, &entry), Error::kOk);
    uint8_t kind = 0;
    ASSERT_EQ(entry.scalar<uint8_t>(pte_slot::kValueType, 0, &kind), Error::kOk);
    if (kind != static_cast<uint8_t>(PteValueKind::kInt)) continue;
    ASSERT_EQ(entry.table(pte_slot::kValueValue, &body), Error::kOk);
    // The Int's field: its vtable (at the table minus the table's first word) gives where.
    int32_t back = 0;
    uint16_t off = 0;
    std::memcpy(&back, bytes.data() + body.position(), 4);
    std::memcpy(&off, bytes.data() + body.position() - back + 4, 2);
    if (off == 0) continue;
    int64_t value = 0;
    std::memcpy(&value, bytes.data() + body.position() + off, 8);
    if (value != 0) continue;
    value = int64_t{1} << 31;
    std::memcpy(bytes.data() + body.position() + off, &value, 8);
    ++changed;
  }
  ASSERT_GT(changed, 0u);
  Aligned b(bytes);
  PteDiagnostics diag;
  Result<PteProgram> again = PteProgram::load(b.data(), b.size(), &diag);
  ASSERT_TRUE(again.ok());
  Memory memory(*again);
  Result<PteMethod> method = PteMethod::load(*again, memory.manager, &diag);
  ASSERT_FALSE(method.ok());
  EXPECT_EQ(method.error(), Error::kBadOperatorArgs);
  ASSERT_NE(diag.field, nullptr);
  EXPECT_STREQ(diag.field, "KernelCall.args (socsim: an int32 word)");
}

TEST(PteRobustness, EveryTruncationIsRefused) {
  for (const char* name : kFixtures) {
    const std::vector<uint8_t> bytes = read_file(fixture(std::string(name) + ".pte"));
    const std::vector<uint8_t> input = read_file(fixture(std::string(name) + ".input.bin"));
    uint32_t refused = 0;
    for (size_t n = 0; n < bytes.size(); ++n) {
      PteDiagnostics diag;
      const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
      const Error e = try_program(cut, input, &diag);
      EXPECT_NE(e, Error::kOk) << name << " cut to " << n << " bytes";
      if (e != Error::kOk) ++refused;
    }
    std::printf("%s: %u of %zu truncations refused\n", name, refused, bytes.size());
  }
}

/// Every refusal names the field (and the field is a one-line text).
void expect_named(const PteDiagnostics& diag, Error e) {
  if (e == Error::kOk) return;
  ASSERT_NE(diag.field, nullptr) << to_string(e);
  EXPECT_EQ(std::strchr(diag.field, '\n'), nullptr);
}

TEST(PteRobustness, BitFlipsAreRefusedOrRun) {
  for (const char* name : kFixtures) {
    const std::vector<uint8_t> bytes = read_file(fixture(std::string(name) + ".pte"));
    const std::vector<uint8_t> input = read_file(fixture(std::string(name) + ".input.bin"));
    std::map<Error, uint32_t> outcomes;
    uint32_t seed = 12345;
    const size_t flips = std::min<size_t>(bytes.size() * 2, 6000);
    for (size_t k = 0; k < flips; ++k) {
      seed = seed * 1664525u + 1013904223u;
      std::vector<uint8_t> mutated = bytes;
      const size_t at = (seed >> 8) % bytes.size();
      mutated[at] ^= static_cast<uint8_t>(1u << (seed & 7));
      PteDiagnostics diag;
      const Error e = try_program(mutated, input, &diag);
      expect_named(diag, e);
      ++outcomes[e];
    }
    std::printf("%s: %zu bit flips:", name, flips);
    for (const auto& [e, n] : outcomes) std::printf(" %s %u", to_string(e), n);
    std::printf("\n");
  }
}

TEST(PteRobustness, HugeCountsAndOffsetsAreRefusedOrRun) {
  const uint32_t patterns[] = {0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x00FFFFFFu, 0xFFFFFFF0u};
  for (const char* name : kFixtures) {
    const std::vector<uint8_t> bytes = read_file(fixture(std::string(name) + ".pte"));
    const std::vector<uint8_t> input = read_file(fixture(std::string(name) + ".input.bin"));
    // The FlatBuffer part only (constant data would just change the outputs).
    uint32_t limit = static_cast<uint32_t>(bytes.size());
    uint64_t program_size = 0;
    if (bytes.size() >= 24 && std::memcmp(bytes.data() + 8, "eh00", 4) == 0) {
      std::memcpy(&program_size, bytes.data() + 16, 8);
      limit = static_cast<uint32_t>(std::min<uint64_t>(program_size, bytes.size()));
    }
    std::map<Error, uint32_t> outcomes;
    uint32_t runs = 0;
    for (uint32_t at = 0; at + 4 <= limit; at += 4) {
      for (uint32_t value : patterns) {
        std::vector<uint8_t> mutated = bytes;
        std::memcpy(mutated.data() + at, &value, 4);
        PteDiagnostics diag;
        const Error e = try_program(mutated, input, &diag);
        expect_named(diag, e);
        ++outcomes[e];
        ++runs;
      }
    }
    std::printf("%s: %u huge words:", name, runs);
    for (const auto& [e, n] : outcomes) std::printf(" %s %u", to_string(e), n);
    std::printf("\n");
  }
}

}  // namespace
}  // namespace socsim::runtime

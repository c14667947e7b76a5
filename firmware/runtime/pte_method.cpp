// Loading and running an ExecuTorch program's execution plan (pte_method.h).
#include "firmware/runtime/pte_method.h"

#include <string.h>

#include "firmware/runtime/profiling.h"
#include "firmware/runtime/pte_socsim_ops.h"

namespace socsim::runtime {

using pte::FbTable;
using pte::FbVector;

namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;
/// The compile spec that tells how many of a delegate call's trailing arguments are outputs
/// (u32, little-endian; 1 when absent).
constexpr char kOutputCountSpec[] = "socsim.output_count";

/// The runtime's element type for an ExecuTorch one (kernels see these); other types keep a
/// placeholder that no kernel accepts (the operators check the ExecuTorch type first).
ScalarType runtime_type(int8_t type) {
  switch (static_cast<PteScalarType>(type)) {
    case PteScalarType::kFloat:
      return ScalarType::kFloat32;
    case PteScalarType::kChar:
      return ScalarType::kInt8;
    case PteScalarType::kInt:
      return ScalarType::kInt32;
    default:
      return ScalarType::kUInt8;
  }
}

/// The table of element `index` of a vector of tables.
Error table_at(const PteProgram& program, const FbVector& vector, uint32_t index, FbTable* t) {
  uint32_t pos = 0;
  SOCSIM_RT_TRY(vector.target(index, &pos));
  return FbTable::at(program.file(), pos, t);
}

/// Reads a vector of int32 value indices into `out` (from `alloc`), each < value_count.
Error read_indices(const FbVector& v, uint32_t value_count, MemoryAllocator& alloc,
                   uint32_t** out) {
  *out = alloc.allocate_array<uint32_t>(v.size());
  if (*out == nullptr && v.size() > 0) return Error::kMemoryAllocationFailed;
  for (uint32_t i = 0; i < v.size(); ++i) {
    const int32_t index = v.at<int32_t>(i);
    if (index < 0 || static_cast<uint32_t>(index) >= value_count) {
      return Error::kProgramOutOfBounds;
    }
    (*out)[i] = static_cast<uint32_t>(index);
  }
  return Error::kOk;
}

}  // namespace

Result<PteMethod> PteMethod::load(const PteProgram& program, const MemoryManager& memory,
                                  PteDiagnostics* diag) {
  profile_begin(ProfileEvent::kMethodLoad, 0, "method_load", 0);
  PteMethod m;
  m.memory_ = memory;
  Error error = Error::kOk;
  if (memory.method_allocator == nullptr || memory.temp_allocator == nullptr ||
      (memory.planned_buffer_count > 0 && memory.planned_buffers == nullptr)) {
    error = Error::kInvalidArgument;
  }
  if (error == Error::kOk && memory.planned_buffer_count < program.num_memory_planned_buffers()) {
    error = pte_fail(diag, Error::kPlannedMemoryTooSmall, "planned buffers");
  }
  for (uint32_t b = 0; error == Error::kOk && b < program.num_memory_planned_buffers(); ++b) {
    const uint32_t size = program.memory_planned_buffer_size(b);
    if (memory.planned_buffers[b].size < size ||
        (size > 0 && memory.planned_buffers[b].data == nullptr)) {
      error = pte_fail(diag, Error::kPlannedMemoryTooSmall, "planned buffer", b + 1);
    }
  }
  if (error == Error::kOk) error = m.load_values(program, diag);
  if (error == Error::kOk) {
    error = pte_apply_socsim_quantization(program, m.values_, m.value_count_, diag);
  }
  if (error == Error::kOk) error = m.load_io(program, diag);
  if (error == Error::kOk) {
    profile_begin(ProfileEvent::kMethodInit, 0, "method_init", 0);
    error = m.init_delegates(program, diag);
    if (error == Error::kOk) error = m.load_instructions(program, diag);
    profile_end(ProfileEvent::kMethodInit, 0, "method_init", m.instruction_count_);
  }
  profile_end(ProfileEvent::kMethodLoad, 0, "method_load", m.instruction_count_);
  if (error != Error::kOk) return error;
  m.ready_ = true;
  return move_from(m);
}

PteMethod::PteMethod(PteMethod&& other) {
  *this = move_from(other);
}

PteMethod& PteMethod::operator=(PteMethod&& other) {
  if (this == &other) return *this;
  memory_ = other.memory_;
  values_ = other.values_;
  value_count_ = other.value_count_;
  inputs_ = other.inputs_;
  outputs_ = other.outputs_;
  input_types_ = other.input_types_;
  output_types_ = other.output_types_;
  input_count_ = other.input_count_;
  output_count_ = other.output_count_;
  instructions_ = other.instructions_;
  instruction_count_ = other.instruction_count_;
  chains_ = other.chains_;
  chain_count_ = other.chain_count_;
  delegates_ = move_from(other.delegates_);  // releases this method's handles first
  delegate_outputs_ = other.delegate_outputs_;
  executions_ = other.executions_;
  ready_ = other.ready_;
  other.ready_ = false;
  return *this;
}

Error PteMethod::load_values(const PteProgram& program, PteDiagnostics* diag) {
  using namespace pte_slot;
  MemoryAllocator& alloc = *memory_.method_allocator;
  const FbVector& values = program.values();
  value_count_ = values.size();
  values_ = alloc.allocate_array<PteValue>(value_count_);
  if (values_ == nullptr && value_count_ > 0) {
    return pte_fail(diag, Error::kMemoryAllocationFailed, "ExecutionPlan.values");
  }
  for (uint32_t i = 0; i < value_count_; ++i) {
    FbTable entry;
    Error e = table_at(program, values, i, &entry);
    uint8_t type = 0;
    if (e == Error::kOk) e = entry.scalar<uint8_t>(kValueType, 0, &type);
    FbTable body;
    if (e == Error::kOk) e = entry.table(kValueValue, &body);
    if (e != Error::kOk) return pte_fail(diag, e, "EValue", i);
    PteValue& v = values_[i];
    v.kind = static_cast<PteValueKind>(type);
    if (!body.present() && v.kind != PteValueKind::kNull) {
      return pte_fail(diag, Error::kProgramBadTensor, "EValue.val (missing)", i);
    }
    FbVector items;
    switch (v.kind) {
      case PteValueKind::kNull:
        break;
      case PteValueKind::kInt:
        e = body.scalar<int64_t>(0, 0, &v.i);
        break;
      case PteValueKind::kBool: {
        uint8_t b = 0;
        e = body.scalar<uint8_t>(0, 0, &b);
        if (e == Error::kOk && b > 1) e = Error::kProgramBadTensor;
        v.i = b;
        break;
      }
      case PteValueKind::kDouble:
        e = body.scalar<double>(0, 0.0, &v.d);
        break;
      case PteValueKind::kString: {
        const char* text = nullptr;
        uint32_t length = 0;
        e = body.string(0, &text, &length);
        v.list.data = reinterpret_cast<const uint8_t*>(text);
        v.list.count = length;
        break;
      }
      case PteValueKind::kIntList:
      case PteValueKind::kDoubleList:
      case PteValueKind::kBoolList:
      case PteValueKind::kTensorList:
      case PteValueKind::kOptionalTensorList: {
        const uint32_t size =
            v.kind == PteValueKind::kBoolList                                         ? 1
            : v.kind == PteValueKind::kIntList || v.kind == PteValueKind::kDoubleList ? 8
                                                                                      : 4;
        e = body.vector(0, size, &items);
        v.list.data = items.bytes();
        v.list.count = items.size();
        break;
      }
      case PteValueKind::kTensor:
        e = load_tensor(program, body, i, &v, diag);
        break;
      default:
        return pte_fail(diag, Error::kProgramBadTensor, "EValue.val_type", i);
    }
    if (e != Error::kOk) return pte_fail(diag, e, "EValue", i);
  }
  // List items refer to other values: an IntList's items are Int values (resolved here into
  // an array of their values), a TensorList's tensors (-1, "none", in optional lists).
  for (uint32_t i = 0; i < value_count_; ++i) {
    PteValue& v = values_[i];
    if (v.kind == PteValueKind::kIntList) {
      int64_t* ints = alloc.allocate_array<int64_t>(v.list.count);
      if (ints == nullptr && v.list.count > 0) {
        return pte_fail(diag, Error::kMemoryAllocationFailed, "IntList", i);
      }
      for (uint32_t k = 0; k < v.list.count; ++k) {
        int64_t item;
        memcpy(&item, v.list.data + 8 * k, 8);
        if (item < 0 || static_cast<uint64_t>(item) >= value_count_ ||
            values_[item].kind != PteValueKind::kInt) {
          return pte_fail(diag, Error::kProgramOutOfBounds, "IntList.items", i);
        }
        ints[k] = values_[item].i;
      }
      v.list.data = reinterpret_cast<const uint8_t*>(ints);
      continue;
    }
    if (v.kind == PteValueKind::kBoolList) {
      for (uint32_t k = 0; k < v.list.count; ++k) {
        if (v.list.data[k] > 1) return pte_fail(diag, Error::kProgramBadTensor, "BoolList", i);
      }
    }
    if (v.kind != PteValueKind::kTensorList && v.kind != PteValueKind::kOptionalTensorList) {
      continue;
    }
    for (uint32_t k = 0; k < v.list.count; ++k) {
      const int32_t item = v.list.index_at(k);
      if (item == -1 && v.kind == PteValueKind::kOptionalTensorList) continue;
      if (item < 0 || static_cast<uint32_t>(item) >= value_count_ ||
          values_[item].kind != PteValueKind::kTensor) {
        return pte_fail(diag, Error::kProgramOutOfBounds, "TensorList.items", i);
      }
    }
  }
  return Error::kOk;
}

Error PteMethod::load_tensor(const PteProgram& program, const FbTable& t, uint32_t index,
                             PteValue* value, PteDiagnostics* diag) {
  using namespace pte_slot;
  int8_t type = 0;
  int32_t storage_offset = 0;
  uint32_t data_buffer = 0;
  uint8_t dynamism = 0;
  FbVector sizes, dim_order;
  FbTable allocation;
  FbTable extra;
  Error e = t.scalar<int8_t>(kTensorScalarType, 0, &type);
  if (e == Error::kOk) e = t.table(kTensorExtraInfo, &extra);
  if (e == Error::kOk && extra.present()) {
    // Data in a mutable segment or outside the file (.ptd): not read by this runtime.
    uint64_t mutable_segment = 0;
    uint8_t location = 0;
    e = extra.scalar<uint64_t>(kExtraMutableSegment, 0, &mutable_segment);
    if (e == Error::kOk) e = extra.scalar<uint8_t>(kExtraLocation, 0, &location);
    const char* name = nullptr;
    uint32_t length = 0;
    if (e == Error::kOk) e = extra.string(kExtraName, &name, &length);
    if (e == Error::kOk && (mutable_segment != 0 || location != 0)) e = Error::kNotSupported;
  }
  if (e == Error::kOk) e = t.scalar<int32_t>(kTensorStorageOffset, 0, &storage_offset);
  if (e == Error::kOk) e = t.vector(kTensorSizes, 4, &sizes);
  if (e == Error::kOk) e = t.vector(kTensorDimOrder, 1, &dim_order);
  if (e == Error::kOk) e = t.scalar<uint32_t>(kTensorDataBuffer, 0, &data_buffer);
  if (e == Error::kOk) e = t.table(kTensorAllocation, &allocation);
  if (e == Error::kOk) e = t.scalar<uint8_t>(kTensorShapeDynamism, 0, &dynamism);
  if (e != Error::kOk) return pte_fail(diag, e, "Tensor", index);
  const uint32_t element = pte_element_size(type);
  if (element == 0) return pte_fail(diag, Error::kNotSupported, "Tensor.scalar_type", index);
  if (storage_offset != 0) {
    return pte_fail(diag, Error::kNotSupported, "Tensor.storage_offset", index);
  }
  if (dynamism != 0) return pte_fail(diag, Error::kNotSupported, "Tensor.shape_dynamism", index);
  if (sizes.size() > kMaxRank) return pte_fail(diag, Error::kNotSupported, "Tensor.sizes", index);
  if (dim_order.size() != 0 && dim_order.size() != sizes.size()) {
    return pte_fail(diag, Error::kProgramBadTensor, "Tensor.dim_order", index);
  }
  Tensor* tensor = memory_.method_allocator->allocate_array<Tensor>(1);
  if (tensor == nullptr) return pte_fail(diag, Error::kMemoryAllocationFailed, "Tensor", index);
  tensor->dtype = runtime_type(type);
  tensor->rank = sizes.size();
  uint64_t nbytes = element;
  for (uint32_t d = 0; d < sizes.size(); ++d) {
    const int32_t n = sizes.at<int32_t>(d);
    if (n < 0) return pte_fail(diag, Error::kProgramBadTensor, "Tensor.sizes", index);
    if (dim_order.size() != 0 && dim_order.at<uint8_t>(d) != d) {
      // only the contiguous (row-major) order
      return pte_fail(diag, Error::kNotSupported, "Tensor.dim_order", index);
    }
    tensor->sizes[d] = n;
    nbytes *= static_cast<uint64_t>(n);
    if (nbytes > 0x7FFFFFFFu)
      return pte_fail(diag, Error::kProgramBadTensor, "Tensor.sizes", index);
  }
  tensor->nbytes = static_cast<uint32_t>(nbytes);
  if (allocation.present()) {
    if (data_buffer != 0) {
      return pte_fail(diag, Error::kProgramBadTensor, "Tensor.data_buffer_idx", index);
    }
    uint32_t id = 0, low = 0, high = 0;
    e = allocation.scalar<uint32_t>(kAllocMemoryId, 0, &id);
    if (e == Error::kOk) e = allocation.scalar<uint32_t>(kAllocOffsetLow, 0, &low);
    if (e == Error::kOk) e = allocation.scalar<uint32_t>(kAllocOffsetHigh, 0, &high);
    if (e != Error::kOk) return pte_fail(diag, e, "AllocationDetails", index);
    if (id == 0 || id > program.num_memory_planned_buffers()) {
      return pte_fail(diag, Error::kProgramBadMemoryPlan, "AllocationDetails.memory_id", index);
    }
    const uint32_t size = program.memory_planned_buffer_size(id - 1);
    if (high != 0 || low > size || tensor->nbytes > size - low) {
      return pte_fail(diag, Error::kProgramBadMemoryPlan, "AllocationDetails.memory_offset", index);
    }
    tensor->data = memory_.planned_buffers[id - 1].data + low;
  } else if (data_buffer != 0) {
    const uint8_t* data = nullptr;
    e = program.constant_data(data_buffer, tensor->nbytes, &data);
    if (e != Error::kOk) return pte_fail(diag, e, "Tensor.data_buffer_idx", index);
    tensor->data = const_cast<uint8_t*>(data);  // kernels only read their inputs
  } else if (tensor->nbytes != 0) {
    // Neither planned nor constant: data the runtime would have to allocate.
    return pte_fail(diag, Error::kNotSupported, "Tensor (no memory plan, no data)", index);
  }
  if (reinterpret_cast<uintptr_t>(tensor->data) % (element > 4 ? 4 : element) != 0) {
    return pte_fail(diag, Error::kProgramMisaligned, "Tensor data", index);
  }
  value->tensor = tensor;
  value->dtype = type;
  value->constant = !allocation.present() && data_buffer != 0;
  return Error::kOk;
}

Error PteMethod::load_io(const PteProgram& program, PteDiagnostics* diag) {
  MemoryAllocator& alloc = *memory_.method_allocator;
  for (int side = 0; side < 2; ++side) {
    const FbVector& list = side == 0 ? program.inputs() : program.outputs();
    const char* field = side == 0 ? "ExecutionPlan.inputs" : "ExecutionPlan.outputs";
    uint32_t* indices = nullptr;
    Error e = read_indices(list, value_count_, alloc, &indices);
    if (e != Error::kOk) return pte_fail(diag, e, field);
    Tensor** tensors = alloc.allocate_array<Tensor*>(list.size());
    int8_t* types = alloc.allocate_array<int8_t>(list.size());
    if ((tensors == nullptr || types == nullptr) && list.size() > 0) {
      return pte_fail(diag, Error::kMemoryAllocationFailed, field);
    }
    for (uint32_t i = 0; i < list.size(); ++i) {
      const PteValue& v = values_[indices[i]];
      if (v.kind != PteValueKind::kTensor) return pte_fail(diag, Error::kNotSupported, field, i);
      tensors[i] = v.tensor;
      types[i] = v.dtype;
    }
    if (side == 0) {
      inputs_ = tensors;
      input_types_ = types;
      input_count_ = list.size();
    } else {
      outputs_ = tensors;
      output_types_ = types;
      output_count_ = list.size();
    }
  }
  return Error::kOk;
}

Error PteMethod::init_delegates(const PteProgram& program, PteDiagnostics* diag) {
  using namespace pte_slot;
  const FbVector& list = program.delegates();
  const bool handles_ok = delegates_.allocate(*memory_.method_allocator, list.size());
  delegate_outputs_ = memory_.method_allocator->allocate_array<uint32_t>(list.size());
  if ((!handles_ok || delegate_outputs_ == nullptr) && list.size() > 0) {
    return pte_fail(diag, Error::kMemoryAllocationFailed, "ExecutionPlan.delegates");
  }
  SOCSIM_RT_TRY(backend_registry_status());
  for (uint32_t i = 0; i < list.size(); ++i) {
    FbTable delegate, processed;
    const char* id = nullptr;
    uint32_t id_length = 0;
    FbVector specs;
    uint8_t location = 0;
    uint32_t data_index = 0;
    Error e = table_at(program, list, i, &delegate);
    if (e == Error::kOk) e = delegate.string(kDelegateId, &id, &id_length);
    if (e == Error::kOk) e = delegate.table(kDelegateProcessed, &processed);
    if (e == Error::kOk) e = delegate.vector(kDelegateCompileSpecs, 4, &specs);
    if (e == Error::kOk && processed.present()) {
      e = processed.scalar<uint8_t>(kReferenceLocation, 0, &location);
      if (e == Error::kOk) e = processed.scalar<uint32_t>(kReferenceIndex, 0, &data_index);
    }
    if (e != Error::kOk) return pte_fail(diag, e, "BackendDelegate", i);
    if (id == nullptr || !processed.present()) {
      return pte_fail(diag, Error::kProgramBadDelegate, "BackendDelegate.id/processed", i);
    }
    const uint8_t* blob = nullptr;
    uint32_t blob_size = 0;
    if (location == 0) {
      e = program.inline_delegate_data(data_index, &blob, &blob_size);
    } else if (location == 1) {
      e = program.segment(data_index, &blob, &blob_size);
    } else {
      e = Error::kProgramBadDelegate;
    }
    if (e != Error::kOk) return pte_fail(diag, e, "BackendDelegateDataReference", i);
    delegate_outputs_[i] = 1;
    for (uint32_t s = 0; s < specs.size(); ++s) {
      FbTable spec;
      const char* key = nullptr;
      uint32_t key_length = 0;
      FbVector value;
      e = table_at(program, specs, s, &spec);
      if (e == Error::kOk) e = spec.string(kSpecKey, &key, &key_length);
      if (e == Error::kOk) e = spec.vector(kSpecValue, 1, &value);
      if (e != Error::kOk) return pte_fail(diag, e, "CompileSpec", i);
      if (key != nullptr && key_length == sizeof(kOutputCountSpec) - 1 &&
          memcmp(key, kOutputCountSpec, key_length) == 0) {
        if (value.size() != 4) return pte_fail(diag, Error::kProgramBadDelegate, "CompileSpec", i);
        memcpy(&delegate_outputs_[i], value.bytes(), 4);
      }
    }
    if (diag != nullptr) {
      diag->name = id;
      diag->name_length = id_length;
    }
    const Backend* backend = find_backend(id, id_length);
    if (backend == nullptr) return pte_fail(diag, Error::kDelegateMissing, "BackendDelegate.id", i);
    if (!backend->is_available()) {
      return pte_fail(diag, Error::kDelegateUnavailable, "BackendDelegate.id", i);
    }
    BackendInitContext context;
    context.method_allocator = memory_.method_allocator;
    context.data_allocator = memory_.backend_data_allocator;
    void* handle = nullptr;
    const char* detail = nullptr;
    context.detail = &detail;
    e = backend->init(context, blob, blob_size, &handle);
    if (e != Error::kOk) {
      return pte_fail(diag, e, detail != nullptr ? detail : "BackendDelegate (backend init)", i);
    }
    delegates_.push(DelegateHandle(backend, handle));
    if (diag != nullptr) diag->name = nullptr;
  }
  return Error::kOk;
}

/// One instruction's operands as the program gives them: `first` and `second` by kind (see
/// read_operands), the argument list of a call and its value indices (checked in range).
struct PteMethod::Operands {
  int32_t first = 0;
  int32_t second = 0;
  FbVector args;
  uint32_t* indices = nullptr;
};

Error PteMethod::load_instructions(const PteProgram& program, PteDiagnostics* diag) {
  using namespace pte_slot;
  SOCSIM_RT_TRY(allocate_instructions(program, diag));
  PteOpContext ctx;
  ctx.values = values_;
  ctx.value_count = value_count_;
  ctx.allocator = memory_.method_allocator;
  ctx.temp = memory_.temp_allocator;
  ctx.diag = diag;
  bool missing = false;
  const FbVector& chains = program.chains();
  for (uint32_t c = 0; c < chain_count_; ++c) {
    FbTable chain;
    FbVector list;
    (void)table_at(program, chains, c, &chain);  // checked by allocate_instructions
    (void)chain.vector(kChainInstructions, 4, &list);
    for (uint32_t k = 0; k < list.size(); ++k) {
      const uint32_t at = chains_[c].begin + k;
      Operands operands;
      SOCSIM_RT_TRY(read_operands(program, list, k, at, &operands, diag));
      switch (instructions_[at].kind) {
        case PteInstructionKind::kKernelCall:
          SOCSIM_RT_TRY(link_kernel_call(program, ctx, operands, at, &missing, diag));
          break;
        case PteInstructionKind::kDelegateCall:
          SOCSIM_RT_TRY(link_delegate_call(operands, at, diag));
          break;
        default:
          SOCSIM_RT_TRY(link_control(operands, c, list.size(), at, diag));
          break;
      }
    }
  }
  // Every instruction is looked at first, as Method does; the first missing operator is
  // the one reported.
  return missing ? Error::kOperatorMissing : Error::kOk;
}

/// Allocates the chains and one array for every instruction of every chain (counted first).
Error PteMethod::allocate_instructions(const PteProgram& program, PteDiagnostics* diag) {
  using namespace pte_slot;
  MemoryAllocator& alloc = *memory_.method_allocator;
  const FbVector& chains = program.chains();
  chain_count_ = chains.size();
  chains_ = alloc.allocate_array<Chain>(chain_count_);
  if (chains_ == nullptr && chain_count_ > 0) {
    return pte_fail(diag, Error::kMemoryAllocationFailed, "ExecutionPlan.chains");
  }
  uint64_t total = 0;
  for (uint32_t c = 0; c < chain_count_; ++c) {
    FbTable chain;
    FbVector list;
    Error e = table_at(program, chains, c, &chain);
    if (e == Error::kOk) e = chain.vector(kChainInstructions, 4, &list);
    if (e != Error::kOk) return pte_fail(diag, e, "Chain.instructions", c);
    chains_[c].begin = static_cast<uint32_t>(total);
    total += list.size();
    chains_[c].end = static_cast<uint32_t>(total);
  }
  if (total > 0x00FFFFFFu) return pte_fail(diag, Error::kNotSupported, "Chain.instructions");
  instruction_count_ = static_cast<uint32_t>(total);
  instructions_ = alloc.allocate_array<Instruction>(instruction_count_);
  if (instructions_ == nullptr && instruction_count_ > 0) {
    return pte_fail(diag, Error::kMemoryAllocationFailed, "Chain.instructions");
  }
  return Error::kOk;
}

/// Reads instruction k of a chain's list (instruction `at` of the method): its kind into
/// instructions_[at], its operands by kind (a call: the operator or delegate index and the
/// argument list; MoveCall: from and to; JumpFalseCall: the condition value and the
/// destination; FreeCall: the value).
Error PteMethod::read_operands(const PteProgram& program, const FbVector& list, uint32_t k,
                               uint32_t at, Operands* operands, PteDiagnostics* diag) {
  using namespace pte_slot;
  Instruction& ins = instructions_[at];
  FbTable entry, body;
  uint8_t type = 0;
  Error e = table_at(program, list, k, &entry);
  if (e == Error::kOk) e = entry.scalar<uint8_t>(kInstructionType, 0, &type);
  if (e == Error::kOk) e = entry.table(kInstructionValue, &body);
  if (e != Error::kOk) return pte_fail(diag, e, "Instruction", at);
  if (!body.present()) {
    return pte_fail(diag, Error::kProgramBadInstruction, "Instruction.instr_args", at);
  }
  ins.kind = static_cast<PteInstructionKind>(type);
  switch (ins.kind) {
    case PteInstructionKind::kKernelCall:
    case PteInstructionKind::kDelegateCall:
      e = body.scalar<int32_t>(kCallFirst, 0, &operands->first);
      if (e == Error::kOk) e = body.vector(kCallSecond, 4, &operands->args);
      break;
    case PteInstructionKind::kMoveCall:
    case PteInstructionKind::kJumpFalseCall:
      e = body.scalar<int32_t>(kCallFirst, 0, &operands->first);
      if (e == Error::kOk) e = body.scalar<int32_t>(kCallSecond, 0, &operands->second);
      break;
    case PteInstructionKind::kFreeCall:
      e = body.scalar<int32_t>(kCallFirst, 0, &operands->first);
      break;
    default:
      return pte_fail(diag, Error::kProgramBadInstruction, "Instruction.instr_args_type", at);
  }
  if (e != Error::kOk) return pte_fail(diag, e, "Instruction", at);
  e = read_indices(operands->args, value_count_, *memory_.method_allocator, &operands->indices);
  if (e != Error::kOk) return pte_fail(diag, e, "Instruction args", at);
  return Error::kOk;
}

/// Resolves a KernelCall's operator and prepares its call. A missing operator is not an
/// error yet: the instruction stays without a call, *missing is set and the first missing
/// one is what diag names.
Error PteMethod::link_kernel_call(const PteProgram& program, const PteOpContext& ctx,
                                  const Operands& operands, uint32_t at, bool* missing,
                                  PteDiagnostics* diag) {
  using namespace pte_slot;
  Instruction& ins = instructions_[at];
  const int32_t first = operands.first;
  if (first < 0 || static_cast<uint32_t>(first) >= program.operators().size()) {
    return pte_fail(diag, Error::kProgramBadInstruction, "KernelCall.op_index", at);
  }
  FbTable op;
  const char* name = nullptr;
  const char* overload = nullptr;
  uint32_t name_length = 0, overload_length = 0;
  Error e = table_at(program, program.operators(), static_cast<uint32_t>(first), &op);
  if (e == Error::kOk) e = op.string(kOperatorName, &name, &name_length);
  if (e == Error::kOk) e = op.string(kOperatorOverload, &overload, &overload_length);
  if (e != Error::kOk) return pte_fail(diag, e, "Operator", static_cast<uint32_t>(first));
  if (name == nullptr) {
    return pte_fail(diag, Error::kProgramBadInstruction, "Operator.name",
                    static_cast<uint32_t>(first));
  }
  ins.call = memory_.method_allocator->allocate_array<PteOpCall>(1);
  if (ins.call == nullptr) {
    return pte_fail(diag, Error::kMemoryAllocationFailed, "KernelCall", at);
  }
  e = pte_is_socsim_operator(name, name_length)
          ? pte_prepare_socsim_operator(ctx, name, name_length, overload, overload_length,
                                        operands.indices, operands.args.size(), ins.call)
          : pte_prepare_operator(ctx, name, name_length, overload, overload_length,
                                 operands.indices, operands.args.size(), ins.call);
  if (e == Error::kOperatorMissing) {
    if (!*missing && diag != nullptr) {
      diag->name = name;
      diag->name_length = name_length;
      diag->field = "KernelCall (operator missing)";
      diag->index = at;
    }
    *missing = true;
    ins.call = nullptr;
    return Error::kOk;
  }
  if (e != Error::kOk) {
    if (diag != nullptr && diag->name == nullptr) {
      diag->name = name;
      diag->name_length = name_length;
    }
    return pte_fail(diag, e, "KernelCall.args", at);
  }
  ins.name = ins.call->name;
  return Error::kOk;
}

/// Binds a DelegateCall to its delegate and its tensors: inputs, then the outputs the
/// delegate's compile spec counts.
Error PteMethod::link_delegate_call(const Operands& operands, uint32_t at,
                                    PteDiagnostics* diag) {
  Instruction& ins = instructions_[at];
  const int32_t first = operands.first;
  const uint32_t count = operands.args.size();
  if (first < 0 || static_cast<uint32_t>(first) >= delegates_.size()) {
    return pte_fail(diag, Error::kProgramBadInstruction, "DelegateCall.delegate_index", at);
  }
  ins.a = static_cast<uint32_t>(first);
  ins.output_count = delegate_outputs_[ins.a];
  if (ins.output_count == 0 || ins.output_count > count) {
    return pte_fail(diag, Error::kProgramBadDelegate, "DelegateCall.args", at);
  }
  ins.input_count = count - ins.output_count;
  ins.tensors = memory_.method_allocator->allocate_array<Tensor*>(count);
  if (ins.tensors == nullptr) {
    return pte_fail(diag, Error::kMemoryAllocationFailed, "DelegateCall", at);
  }
  for (uint32_t n = 0; n < count; ++n) {
    if (values_[operands.indices[n]].kind != PteValueKind::kTensor) {
      return pte_fail(diag, Error::kNotSupported, "DelegateCall.args (not a tensor)", at);
    }
    ins.tensors[n] = values_[operands.indices[n]].tensor;
  }
  ins.name = delegates_[ins.a].backend()->id;
  return Error::kOk;
}

/// Checks and stores a MoveCall, JumpFalseCall (its destination made absolute within chain
/// `chain` of `chain_length` instructions) or FreeCall.
Error PteMethod::link_control(const Operands& operands, uint32_t chain, uint32_t chain_length,
                              uint32_t at, PteDiagnostics* diag) {
  Instruction& ins = instructions_[at];
  const int32_t first = operands.first, second = operands.second;
  const auto value_index_ok = [&](int32_t v) {
    return v >= 0 && static_cast<uint32_t>(v) < value_count_;
  };
  switch (ins.kind) {
    case PteInstructionKind::kMoveCall:
      if (!value_index_ok(first) || !value_index_ok(second)) {
        return pte_fail(diag, Error::kProgramBadInstruction, "MoveCall", at);
      }
      ins.a = static_cast<uint32_t>(first);
      ins.b = static_cast<uint32_t>(second);
      ins.name = "move";
      break;
    case PteInstructionKind::kJumpFalseCall:
      if (!value_index_ok(first) || second < 0 || static_cast<uint32_t>(second) >= chain_length) {
        return pte_fail(diag, Error::kProgramBadInstruction, "JumpFalseCall", at);
      }
      ins.a = static_cast<uint32_t>(first);
      ins.b = chains_[chain].begin + static_cast<uint32_t>(second);
      ins.name = "jump_false";
      break;
    case PteInstructionKind::kFreeCall:
      if (!value_index_ok(first)) {
        return pte_fail(diag, Error::kProgramBadInstruction, "FreeCall.value_index", at);
      }
      ins.a = static_cast<uint32_t>(first);
      ins.name = "free";
      break;
    default:
      break;  // calls: read_operands let no other kind through
  }
  return Error::kOk;
}

Error PteMethod::set_input(uint32_t index, const void* data, size_t nbytes) {
  SOCSIM_RT_CHECK(index < input_count_, Error::kNotFound);
  SOCSIM_RT_CHECK(nbytes == inputs_[index]->nbytes && data != nullptr, Error::kInvalidArgument);
  memcpy(inputs_[index]->data, data, nbytes);
  return Error::kOk;
}

Error PteMethod::bind_input(uint32_t index, void* data, size_t nbytes) {
  SOCSIM_RT_CHECK(index < input_count_, Error::kNotFound);
  SOCSIM_RT_CHECK(nbytes == inputs_[index]->nbytes && data != nullptr, Error::kInvalidArgument);
  SOCSIM_RT_CHECK(reinterpret_cast<uintptr_t>(data) % kInputAlignment == 0,
                  Error::kInvalidArgument);
  inputs_[index]->data = data;
  return Error::kOk;
}

Error PteMethod::execute(PteDiagnostics* diag) {
  SOCSIM_RT_CHECK(ready_, Error::kInvalidState);
  profile_begin(ProfileEvent::kExecute, executions_, "execute", instruction_count_);
  Error error = Error::kOk;
  MemoryAllocator* temp = memory_.temp_allocator;
  const uint64_t budget = static_cast<uint64_t>(instruction_count_) * kMaxStepsPerInstruction;
  uint64_t steps = 0;
  uint32_t failed = kNone;
  for (uint32_t c = 0; c < chain_count_ && error == Error::kOk; ++c) {
    uint32_t pc = chains_[c].begin;
    while (pc < chains_[c].end && error == Error::kOk) {
      if (++steps > budget) {
        error = Error::kInvalidState;
        failed = pc;
        break;
      }
      const Instruction& ins = instructions_[pc];
      uint32_t next = pc + 1;
      switch (ins.kind) {
        case PteInstructionKind::kKernelCall: {
          const PteOpCall& call = *ins.call;
          profile_begin(ProfileEvent::kOperator, pc, call.name, call.elements);
          error = call.run(call);
          profile_end(ProfileEvent::kOperator, pc, call.name, call.elements);
          break;
        }
        case PteInstructionKind::kDelegateCall: {
          const uint32_t elements = ins.tensors[ins.input_count]->numel();
          profile_begin(ProfileEvent::kDelegate, pc, ins.name, elements);
          const DelegateHandle& d = delegates_[ins.a];
          BackendExecuteContext context;
          context.temp = temp;
          error = d.backend()->execute(context, d.handle(), ins.tensors, ins.input_count,
                                       ins.output_count);
          profile_end(ProfileEvent::kDelegate, pc, ins.name, elements);
          break;
        }
        case PteInstructionKind::kMoveCall: {
          // Kernels hold their tensors' descriptors: a tensor moves by its descriptor (data,
          // shape), any other value by value.
          PteValue& to = values_[ins.b];
          const PteValue& from = values_[ins.a];
          const bool to_tensor = to.kind == PteValueKind::kTensor;
          if (to_tensor != (from.kind == PteValueKind::kTensor)) {
            error = Error::kInvalidArgument;
          } else if (to_tensor) {
            *to.tensor = *from.tensor;
            to.dtype = from.dtype;
          } else {
            to = from;
          }
          break;
        }
        case PteInstructionKind::kJumpFalseCall: {
          const PteValue& cond = values_[ins.a];
          if (cond.kind != PteValueKind::kBool) {
            error = Error::kInvalidArgument;
          } else if (cond.i == 0) {
            next = ins.b;
          }
          break;
        }
        case PteInstructionKind::kFreeCall:
          // Planned tensors keep their memory; freeing is a no-op for them.
          if (values_[ins.a].kind != PteValueKind::kTensor) error = Error::kInvalidArgument;
          break;
      }
      temp->reset();
      if (error != Error::kOk) failed = pc;
      pc = next;
    }
  }
  if (error != Error::kOk && diag != nullptr) {
    diag->field = "instruction";
    diag->index = failed;
    diag->name = failed < instruction_count_ ? instructions_[failed].name : nullptr;
    diag->name_length = diag->name != nullptr ? static_cast<uint32_t>(strlen(diag->name)) : 0;
  }
  profile_end(ProfileEvent::kExecute, executions_, "execute", instruction_count_);
  ++executions_;
  return error;
}

}  // namespace socsim::runtime

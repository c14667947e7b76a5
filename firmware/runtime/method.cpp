// Method load (bind, init delegates, resolve kernels) and execution.
#include "firmware/runtime/method.h"

#include <string.h>

#include "firmware/abi/generated/program_layout.h"
#include "firmware/runtime/profiling.h"

namespace socsim::runtime {

Result<Method> Method::load(const Program& program, const MemoryManager& memory,
                            MethodDiagnostics* diagnostics) {
  profile_begin(ProfileEvent::kMethodLoad, 0, "method_load", program.instruction_count());
  Method method;
  method.memory_ = memory;
  Error error = Error::kOk;
  if (memory.method_allocator == nullptr || memory.temp_allocator == nullptr ||
      (memory.planned_buffer_count > 0 && memory.planned_buffers == nullptr)) {
    error = Error::kInvalidArgument;
  }
  if (error == Error::kOk) error = method.bind_tensors(program);
  if (error == Error::kOk) {
    profile_begin(ProfileEvent::kMethodInit, 0, "method_init", program.instruction_count());
    error = method.init_delegates(program, diagnostics);
    if (error == Error::kOk) error = method.resolve_instructions(program, diagnostics);
    profile_end(ProfileEvent::kMethodInit, 0, "method_init", program.instruction_count());
  }
  profile_end(ProfileEvent::kMethodLoad, 0, "method_load", program.instruction_count());
  if (error != Error::kOk) return error;  // ~Method releases the delegates initialised so far
  method.ready_ = true;
  return move_from(method);
}

Method::Method(Method&& other) {
  *this = move_from(other);
}

Method& Method::operator=(Method&& other) {
  if (this == &other) return *this;
  memory_ = other.memory_;
  tensors_ = other.tensors_;
  tensor_count_ = other.tensor_count_;
  inputs_ = other.inputs_;
  outputs_ = other.outputs_;
  input_count_ = other.input_count_;
  output_count_ = other.output_count_;
  instructions_ = other.instructions_;
  instruction_count_ = other.instruction_count_;
  delegates_ = move_from(other.delegates_);  // releases this method's handles first
  executions_ = other.executions_;
  ready_ = other.ready_;
  // The other method no longer owns the handles (and cannot execute).
  other.ready_ = false;
  return *this;
}

Error Method::bind_tensors(const Program& program) {
  MemoryAllocator& alloc = *memory_.method_allocator;
  SOCSIM_RT_CHECK(memory_.planned_buffer_count >= program.buffer_count(),
                  Error::kPlannedMemoryTooSmall);
  for (uint32_t b = 0; b < program.buffer_count(); ++b) {
    SOCSIM_RT_CHECK(memory_.planned_buffers[b].size >= program.buffer_size(b) &&
                        (program.buffer_size(b) == 0 || memory_.planned_buffers[b].data),
                    Error::kPlannedMemoryTooSmall);
  }
  tensor_count_ = program.tensor_count();
  tensors_ = alloc.allocate_array<Tensor>(tensor_count_);
  SOCSIM_RT_CHECK(tensors_ != nullptr, Error::kMemoryAllocationFailed);
  for (uint32_t i = 0; i < tensor_count_; ++i) {
    const TensorRecord rec = program.tensor(i);
    Tensor& t = tensors_[i];
    t.dtype = rec.dtype;
    t.rank = rec.rank;
    for (uint32_t d = 0; d < rec.rank; ++d) t.sizes[d] = static_cast<int32_t>(rec.dims[d]);
    t.nbytes = rec.nbytes;
    if (rec.storage == abi::kStorageConstant) {
      // Constants are used in place; kernels only read inputs.
      t.data = const_cast<uint8_t*>(program.constant_segment() + rec.offset);
    } else {
      t.data = memory_.planned_buffers[rec.buffer].data + rec.offset;
    }
    t.quant.kind = rec.quant_kind;
    t.quant.scale = rec.scale;
    t.quant.zero_point = rec.zero_point;
    if (rec.quant_kind == QuantKind::kPerChannel) {
      t.quant.axis = rec.quant_axis;
      t.quant.channels = rec.channels;
      t.quant.scales = reinterpret_cast<const float*>(program.bytes() + rec.scales_offset);
      t.quant.zero_points =
          reinterpret_cast<const int32_t*>(program.bytes() + rec.zero_points_offset);
    }
  }
  input_count_ = program.input_count();
  output_count_ = program.output_count();
  inputs_ = alloc.allocate_array<Tensor*>(input_count_);
  outputs_ = alloc.allocate_array<Tensor*>(output_count_);
  SOCSIM_RT_CHECK(
      (inputs_ != nullptr || input_count_ == 0) && (outputs_ != nullptr || output_count_ == 0),
      Error::kMemoryAllocationFailed);
  for (uint32_t i = 0; i < input_count_; ++i) inputs_[i] = &tensors_[program.input_tensor_id(i)];
  for (uint32_t i = 0; i < output_count_; ++i) {
    outputs_[i] = &tensors_[program.output_tensor_id(i)];
  }
  return Error::kOk;
}

Error Method::init_delegates(const Program& program, MethodDiagnostics* diagnostics) {
  const uint32_t delegate_count = program.delegate_count();
  SOCSIM_RT_CHECK(delegates_.allocate(*memory_.method_allocator, delegate_count),
                  Error::kMemoryAllocationFailed);
  SOCSIM_RT_TRY(backend_registry_status());
  for (uint32_t i = 0; i < delegate_count; ++i) {
    const DelegateRecord rec = program.delegate(i);
    if (diagnostics != nullptr) diagnostics->name = rec.backend_id;
    const Backend* backend = find_backend(rec.backend_id, rec.backend_id_length);
    SOCSIM_RT_CHECK(backend != nullptr, Error::kDelegateMissing);
    SOCSIM_RT_CHECK(backend->is_available(), Error::kDelegateUnavailable);
    BackendInitContext context;
    context.method_allocator = memory_.method_allocator;
    void* handle = nullptr;
    const Error error = backend->init(context, rec.blob, rec.blob_size, &handle);
    SOCSIM_RT_CHECK(error == Error::kOk, error);
    delegates_.push(DelegateHandle(backend, handle));
  }
  if (diagnostics != nullptr) diagnostics->name = nullptr;
  return Error::kOk;
}

Error Method::resolve_instructions(const Program& program, MethodDiagnostics* diagnostics) {
  MemoryAllocator& alloc = *memory_.method_allocator;
  SOCSIM_RT_TRY(kernel_registry_status());
  instruction_count_ = program.instruction_count();
  instructions_ = alloc.allocate_array<Instruction>(instruction_count_);
  SOCSIM_RT_CHECK(instructions_ != nullptr || instruction_count_ == 0,
                  Error::kMemoryAllocationFailed);
  bool missing = false;
  for (uint32_t i = 0; i < instruction_count_; ++i) {
    const InstructionRecord rec = program.instruction(i);
    Instruction& ins = instructions_[i];
    ins.kind = rec.kind;
    ins.input_count = rec.input_count;
    ins.output_count = rec.output_count;
    ins.args = rec.args;
    ins.arg_count = rec.arg_count;
    ins.tensors = alloc.allocate_array<Tensor*>(rec.input_count + rec.output_count);
    SOCSIM_RT_CHECK(ins.tensors != nullptr, Error::kMemoryAllocationFailed);
    for (uint32_t k = 0; k < rec.input_count + rec.output_count; ++k) {
      uint32_t id;
      memcpy(&id, &rec.tensor_ids[k], sizeof(id));
      ins.tensors[k] = &tensors_[id];
    }
    if (rec.kind == abi::kInstructionDelegate) {
      ins.delegate = rec.delegate_index;
      ins.name = program.delegate(rec.delegate_index).backend_id;
      continue;
    }
    ins.name = rec.name;
    // Kernels are keyed by the dtype of their first input (of the output if none).
    const ScalarType dtype =
        rec.input_count > 0 ? ins.tensors[0]->dtype : ins.tensors[rec.input_count]->dtype;
    const Kernel* kernel = find_kernel(rec.name, rec.name_length, dtype);
    if (kernel == nullptr) {
      if (!missing && diagnostics != nullptr) {
        diagnostics->instruction = i;
        diagnostics->name = rec.name;
        diagnostics->dtype = dtype;
      }
      missing = true;
      continue;
    }
    ins.fn = kernel->fn;
  }
  return missing ? Error::kOperatorMissing : Error::kOk;
}

Error Method::set_input(uint32_t index, const void* data, size_t nbytes) {
  SOCSIM_RT_CHECK(index < input_count_, Error::kNotFound);
  SOCSIM_RT_CHECK(nbytes == inputs_[index]->nbytes && data != nullptr, Error::kInvalidArgument);
  memcpy(inputs_[index]->data, data, nbytes);
  return Error::kOk;
}

Error Method::bind_input(uint32_t index, void* data, size_t nbytes) {
  SOCSIM_RT_CHECK(index < input_count_, Error::kNotFound);
  SOCSIM_RT_CHECK(nbytes == inputs_[index]->nbytes && data != nullptr, Error::kInvalidArgument);
  SOCSIM_RT_CHECK(reinterpret_cast<uintptr_t>(data) % kInputAlignment == 0,
                  Error::kInvalidArgument);
  inputs_[index]->data = data;
  return Error::kOk;
}

Error Method::execute(MethodDiagnostics* diagnostics) {
  SOCSIM_RT_CHECK(ready_, Error::kInvalidState);
  profile_begin(ProfileEvent::kExecute, executions_, "execute", instruction_count_);
  Error error = Error::kOk;
  MemoryAllocator* temp = memory_.temp_allocator;
  for (uint32_t i = 0; i < instruction_count_ && error == Error::kOk; ++i) {
    const Instruction& ins = instructions_[i];
    Tensor* const* outs = ins.tensors + ins.input_count;
    const uint32_t elements = outs[0]->numel();
    if (ins.kind == abi::kInstructionKernel) {
      profile_begin(ProfileEvent::kOperator, i, ins.name, elements);
      KernelArgs args;
      args.inputs = ins.tensors;
      args.input_count = ins.input_count;
      args.outputs = outs;
      args.output_count = ins.output_count;
      args.args = ins.args;
      args.arg_count = ins.arg_count;
      args.temp = temp;
      error = ins.fn(args);
      profile_end(ProfileEvent::kOperator, i, ins.name, elements);
    } else {
      profile_begin(ProfileEvent::kDelegate, i, ins.name, elements);
      const DelegateHandle& d = delegates_[ins.delegate];
      BackendExecuteContext context;
      context.temp = temp;
      error =
          d.backend()->execute(context, d.handle(), ins.tensors, ins.input_count, ins.output_count);
      profile_end(ProfileEvent::kDelegate, i, ins.name, elements);
    }
    temp->reset();
    if (error != Error::kOk && diagnostics != nullptr) {
      diagnostics->instruction = i;
      diagnostics->name = ins.name;
    }
  }
  profile_end(ProfileEvent::kExecute, executions_, "execute", instruction_count_);
  ++executions_;
  return error;
}

}  // namespace socsim::runtime

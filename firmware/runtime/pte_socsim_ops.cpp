// socsim's own operators in a .pte program (pte_socsim_ops.h).
#include "firmware/runtime/pte_socsim_ops.h"

#include <string.h>

#include "firmware/runtime/kernel_registry.h"

namespace socsim::runtime {

namespace {

constexpr char kPrefix[] = "socsim::";
constexpr uint32_t kPrefixLength = sizeof(kPrefix) - 1;

Error fail(const PteOpContext& ctx, Error e, const char* field, uint32_t index) {
  return pte_fail(ctx.diag, e, field, index);
}

Error run_socsim(const PteOpCall& c) {
  return c.fn[0](c.args[0]);
}

/// "NS::NAME.OVERLOAD" (NUL-terminated, from the method allocator) of "socsim::NS__NAME".
const char* schema_name(const PteOpContext& ctx, const char* name, uint32_t length,
                        const char* overload, uint32_t overload_length, uint32_t* out_length) {
  const char* rest = name + kPrefixLength;
  const uint32_t rest_length = length - kPrefixLength;
  uint32_t split = rest_length;
  for (uint32_t i = 0; i + 1 < rest_length; ++i) {
    if (rest[i] == '_' && rest[i + 1] == '_') {
      split = i;
      break;
    }
  }
  const bool own = split == rest_length;  // socsim::NAME: the schema's socsim namespace
  const uint32_t ns_length = own ? kPrefixLength - 2 : split;
  const uint32_t op_length = own ? rest_length : rest_length - split - 2;
  const uint32_t total = ns_length + 2 + op_length + 1 + overload_length;
  char* text = static_cast<char*>(ctx.allocator->allocate(total + 1, 1));
  if (text == nullptr) return nullptr;
  memcpy(text, own ? kPrefix : rest, ns_length);
  memcpy(text + ns_length, "::", 2);
  memcpy(text + ns_length + 2, own ? rest : rest + split + 2, op_length);
  text[ns_length + 2 + op_length] = '.';
  memcpy(text + ns_length + 3 + op_length, overload, overload_length);
  text[total] = '\0';
  *out_length = total;
  return text;
}

}  // namespace

bool pte_is_socsim_operator(const char* name, uint32_t name_length) {
  return name != nullptr && name_length > kPrefixLength &&
         memcmp(name, kPrefix, kPrefixLength) == 0;
}

Error pte_prepare_socsim_operator(const PteOpContext& ctx, const char* name, uint32_t name_length,
                                  const char* overload, uint32_t overload_length,
                                  const uint32_t* args, uint32_t arg_count, PteOpCall* call) {
  if (!pte_is_socsim_operator(name, name_length) || overload == nullptr || overload_length == 0) {
    return Error::kOperatorMissing;
  }
  // inputs..., IntList, outputs..., return value
  uint32_t list = arg_count;
  for (uint32_t i = 0; i < arg_count; ++i) {
    if (ctx.values[args[i]].kind != PteValueKind::kTensor) {
      list = i;
      break;
    }
  }
  if (list == arg_count || ctx.values[args[list]].kind != PteValueKind::kIntList) {
    return fail(ctx, Error::kBadOperatorArgs, "KernelCall.args (socsim: the IntList)",
                list < arg_count ? args[list] : 0xFFFFFFFFu);
  }
  if (arg_count < list + 3) {
    return fail(ctx, Error::kBadOperatorArgs, "KernelCall.args (socsim: no output)", args[list]);
  }
  const uint32_t input_count = list;
  const uint32_t output_count = arg_count - list - 2;
  const uint32_t* outs = args + list + 1;
  const uint32_t ret = args[arg_count - 1];
  for (uint32_t i = 0; i < input_count + output_count; ++i) {
    const uint32_t v = i < input_count ? args[i] : outs[i - input_count];
    const PteValue& value = ctx.values[v];
    if (value.kind != PteValueKind::kTensor) {
      return fail(ctx, Error::kBadOperatorArgs, "KernelCall.args (socsim: a tensor expected)", v);
    }
    if (!runtime_readable(value.dtype)) {
      return fail(ctx, Error::kNotSupported, "KernelCall.args (socsim: element type)", v);
    }
    if (i >= input_count && value.constant) {
      return fail(ctx, Error::kBadOperatorArgs, "KernelCall.args (socsim: constant output)", v);
    }
  }
  const PteValue& rv = ctx.values[ret];
  bool ret_ok = output_count == 1 && ret == outs[0];
  if (output_count > 1 && rv.kind == PteValueKind::kTensorList && rv.list.count == output_count) {
    ret_ok = true;
    for (uint32_t i = 0; i < output_count; ++i) {
      ret_ok = ret_ok && rv.list.index_at(i) == static_cast<int32_t>(outs[i]);
    }
  }
  if (!ret_ok) {
    return fail(ctx, Error::kBadOperatorArgs, "KernelCall.args (return value)", ret);
  }
  const PteList& words_in = ctx.values[args[list]].list;
  MemoryAllocator& alloc = *ctx.allocator;
  Tensor** operands = alloc.allocate_array<Tensor*>(input_count + output_count);
  int32_t* words = alloc.allocate_array<int32_t>(words_in.count);
  call->fn = alloc.allocate_array<KernelFn>(1);
  call->args = alloc.allocate_array<KernelArgs>(1);
  if (operands == nullptr || (words == nullptr && words_in.count > 0) || call->fn == nullptr ||
      call->args == nullptr) {
    return fail(ctx, Error::kMemoryAllocationFailed, "KernelCall (socsim)", args[list]);
  }
  for (uint32_t i = 0; i < words_in.count; ++i) {
    const int64_t w = words_in.int_at(i);
    if (w < INT32_MIN || w > INT32_MAX) {
      return fail(ctx, Error::kBadOperatorArgs, "KernelCall.args (socsim: an int32 word)",
                  args[list]);
    }
    words[i] = static_cast<int32_t>(w);
  }
  for (uint32_t i = 0; i < input_count; ++i) operands[i] = ctx.values[args[i]].tensor;
  for (uint32_t i = 0; i < output_count; ++i) {
    operands[input_count + i] = ctx.values[outs[i]].tensor;
  }
  uint32_t length = 0;
  const char* schema = schema_name(ctx, name, name_length, overload, overload_length, &length);
  if (schema == nullptr) {
    return fail(ctx, Error::kMemoryAllocationFailed, "KernelCall (socsim)", args[list]);
  }
  const ScalarType dtype = operands[0]->dtype;  // the first input's, or the first output's
  const Kernel* kernel = find_kernel(schema, length, dtype);
  if (kernel == nullptr) return Error::kOperatorMissing;
  call->name = schema;
  call->run = run_socsim;
  call->fn[0] = kernel->fn;
  call->calls = 1;
  call->capacity = 1;
  KernelArgs& k = call->args[0];
  k.inputs = operands;
  k.input_count = input_count;
  k.outputs = operands + input_count;
  k.output_count = output_count;
  k.args = words;
  k.arg_count = words_in.count;
  k.temp = ctx.temp;
  call->elements = k.outputs[0]->numel();
  return Error::kOk;
}

Error pte_apply_socsim_quantization(const PteProgram& program, const PteValue* values,
                                    uint32_t value_count, PteDiagnostics* diag) {
  const uint8_t* data = nullptr;
  uint32_t size = 0;
  Error e = program.named_segment("socsim.quantization", &data, &size);
  if (e != Error::kOk) return pte_fail(diag, e, "Program.named_data");
  if (data == nullptr) return Error::kOk;
  auto u32 = [&](uint32_t at) {
    uint32_t v;
    memcpy(&v, data + at, 4);
    return v;
  };
  constexpr uint32_t kHeader = 12, kEntry = 24;
  if (size < kHeader || memcmp(data, "SQNT", 4) != 0 || u32(4) != 1) {
    return pte_fail(diag, Error::kProgramBadTensor, "socsim.quantization (header)");
  }
  if (reinterpret_cast<uintptr_t>(data) % 4 != 0) {
    return pte_fail(diag, Error::kProgramMisaligned, "socsim.quantization");
  }
  const uint32_t count = u32(8);
  uint64_t at = kHeader;
  for (uint32_t i = 0; i < count; ++i) {
    if (at + kEntry > size) {
      return pte_fail(diag, Error::kProgramOutOfBounds, "socsim.quantization (entry)", i);
    }
    const auto a = static_cast<uint32_t>(at);
    const uint32_t index = u32(a);
    const uint8_t kind = data[a + 4];
    float scale;
    int32_t zero_point;
    memcpy(&scale, data + a + 8, 4);
    memcpy(&zero_point, data + a + 12, 4);
    const uint32_t axis = u32(a + 16), channels = u32(a + 20);
    at += kEntry;
    if (index >= value_count || values[index].kind != PteValueKind::kTensor ||
        (kind != 1 && kind != 2)) {
      return pte_fail(diag, Error::kProgramBadTensor, "socsim.quantization (entry)", i);
    }
    Tensor& t = *values[index].tensor;
    if (kind == 1 && !(scale > 0.0f && scale < 3e38f)) {
      return pte_fail(diag, Error::kProgramBadTensor, "socsim.quantization (scale)", i);
    }
    t.quant.kind = static_cast<QuantKind>(kind);
    t.quant.scale = scale;
    t.quant.zero_point = zero_point;
    if (kind == 2) {
      if (axis >= t.rank || channels != static_cast<uint32_t>(t.sizes[axis]) ||
          at + 8 * uint64_t{channels} > size) {
        return pte_fail(diag, Error::kProgramBadTensor, "socsim.quantization (per-channel)", i);
      }
      t.quant.axis = axis;
      t.quant.channels = channels;
      t.quant.scales = reinterpret_cast<const float*>(data + at);
      t.quant.zero_points = reinterpret_cast<const int32_t*>(data + at + 4 * channels);
      at += 8 * uint64_t{channels};
    }
  }
  return Error::kOk;
}

}  // namespace socsim::runtime

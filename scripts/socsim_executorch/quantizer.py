"""A PT2E quantizer with socsim's integer scheme and the NPU's fused patterns.

socsim's NPU layers take int8 activations with symmetric per-tensor scales (zero point 0),
int8 weights with symmetric per-output-channel scales and an int32 bias, and apply a ReLU
or clamp inside a convolution's, fully connected layer's or add's output stage
(docs/npu.md). This quantizer annotates the graph that way (torchao's PT2E `Quantizer`
API: a QuantizationAnnotation on each node), so that convert_pt2e leaves quantize /
dequantize pairs only where the NPU's layers have them: conv2d / linear followed by relu or
hardtanh (ReLU6) is one pattern, as is add followed by relu; max pooling, flatten and view
share their input's quantisation; mean / average pooling, mul and the rest of the adds get
their own.
"""

import torch
from torchao.quantization.pt2e import MinMaxObserver, PerChannelMinMaxObserver
from torchao.quantization.pt2e.quantizer import (QuantizationAnnotation, QuantizationSpec,
                                                 Quantizer, SharedQuantizationSpec)

aten = torch.ops.aten

ACTIVATION = QuantizationSpec(dtype=torch.int8, quant_min=-128, quant_max=127,
                              qscheme=torch.per_tensor_symmetric, is_dynamic=False,
                              observer_or_fake_quant_ctr=MinMaxObserver.with_args(eps=2**-12))
WEIGHT = QuantizationSpec(dtype=torch.int8, quant_min=-127, quant_max=127,
                          qscheme=torch.per_channel_symmetric, ch_axis=0, is_dynamic=False,
                          observer_or_fake_quant_ctr=PerChannelMinMaxObserver.with_args(
                              eps=2**-12))

_MATMUL = (aten.conv2d.default, aten.linear.default)
_ACTIVATIONS = (aten.relu.default, aten.relu_.default, aten.hardtanh.default,
                aten.hardtanh_.default)
_ADD = (aten.add.Tensor, aten.add_.Tensor)
_OWN_OUTPUT = (aten.mul.Tensor, aten.mean.dim, aten.adaptive_avg_pool2d.default,
               aten.avg_pool2d.default)
_SHARED = (aten.max_pool2d.default, aten.flatten.using_ints, aten.view.default,
           aten.reshape.default)


def _annotated(node) -> bool:
    return "quantization_annotation" in node.meta


def _annotate(node, inputs, output):
    node.meta["quantization_annotation"] = QuantizationAnnotation(
        input_qspec_map=inputs, output_qspec=output, _annotated=True)


def _only_activation_user(node):
    """The relu/hardtanh that is the only reader of `node`, or None."""
    users = list(node.users)
    if len(users) == 1 and users[0].target in _ACTIVATIONS and not _annotated(users[0]):
        act = users[0]
        if act.target in (aten.hardtanh.default, aten.hardtanh_.default):
            low = act.args[1] if len(act.args) > 1 else -1.0
            if float(low) != 0.0:  # a clamp the output stage cannot express
                return None
        return act
    return None


class SocsimNpuQuantizer(Quantizer):
    """Annotates the patterns socsim's NPU runs (see the module's text)."""

    def annotate(self, model: torch.fx.GraphModule) -> torch.fx.GraphModule:
        for node in model.graph.nodes:
            if node.op != "call_function" or _annotated(node):
                continue
            if node.target in _MATMUL:
                self._matmul(node)
            elif node.target in _ADD and all(isinstance(a, torch.fx.Node) for a in node.args[:2]):
                act = _only_activation_user(node)
                _annotate(node, {node.args[0]: ACTIVATION, node.args[1]: ACTIVATION},
                          None if act else ACTIVATION)
                if act:
                    _annotate(act, {}, ACTIVATION)
            elif node.target in _OWN_OUTPUT:
                inputs = {a: ACTIVATION for a in node.args[:2] if isinstance(a, torch.fx.Node)}
                _annotate(node, inputs, ACTIVATION)
            elif node.target in _SHARED:
                x = node.args[0]
                _annotate(node, {x: ACTIVATION}, SharedQuantizationSpec((x, node)))
            elif node.target in _ACTIVATIONS:  # alone: its own layer's output stage
                _annotate(node, {node.args[0]: ACTIVATION}, ACTIVATION)
        return model

    def _matmul(self, node):
        x, w = node.args[0], node.args[1]
        inputs = {x: ACTIVATION, w: WEIGHT}
        act = _only_activation_user(node)
        _annotate(node, inputs, None if act else ACTIVATION)
        if act:
            _annotate(act, {}, ACTIVATION)

    def validate(self, model: torch.fx.GraphModule) -> None:
        pass

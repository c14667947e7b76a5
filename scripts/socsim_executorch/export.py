"""Exports a PyTorch model to an ExecuTorch program for socsim, optionally quantised and
delegated to socsim's NPU or cpu-packed backend: the Python call behind
scripts/export_executorch.py.

    from socsim_executorch.export import export_program
    data = export_program(model, (example,), quantize="int8", delegate="npu",
                          calibration=[(x1,), (x2,)])
    open("model.pte", "wb").write(data)

Steps (ExecuTorch's documented flow): torch.export; with quantize="int8", PT2E with
SocsimNpuQuantizer (prepare_pt2e, the calibration inputs, convert_pt2e) and torch.export
again; to_edge_transform_and_lower with the backend's partitioner; to_executorch. The
result is the .pte's bytes (deterministic for the same model, inputs and versions).
"""

from typing import Optional, Sequence

import torch

DELEGATES = ("npu", "cpu-packed")


class ExportError(ValueError):
    pass


def partitioners(delegate: Optional[str], npu_config: Optional[str] = None):
    from socsim_executorch.backend import SocsimCpuPackedPartitioner, SocsimNpuPartitioner
    if delegate is None:
        return []
    if delegate == "npu":
        return [SocsimNpuPartitioner(npu_config)]
    if delegate == "cpu-packed":
        return [SocsimCpuPackedPartitioner()]
    raise ExportError(f"unknown delegate '{delegate}' (known: {', '.join(DELEGATES)})")


def quantize_pt2e(model, example: tuple, calibration: Sequence[tuple]):
    """The PT2E int8 module of `model` (SocsimNpuQuantizer), calibrated on `calibration`."""
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    from socsim_executorch.quantizer import SocsimNpuQuantizer
    graph = torch.export.export(model, example).module(check_guards=False)
    graph = prepare_pt2e(graph, SocsimNpuQuantizer())
    for sample in calibration:
        graph(*sample)
    return convert_pt2e(graph)


def export_program(model, example: tuple, quantize: Optional[str] = None,
                   delegate: Optional[str] = None, calibration: Sequence[tuple] = (),
                   npu_config: Optional[str] = None) -> bytes:
    """The .pte bytes of `model` for the example inputs (see the module's text)."""
    from executorch.exir import EdgeCompileConfig, to_edge_transform_and_lower
    if delegate == "npu" and quantize != "int8":
        raise ExportError("the npu delegate runs int8 operators: quantize with int8")
    if quantize not in (None, "int8"):
        raise ExportError(f"unknown quantization '{quantize}' (known: int8)")
    model = model.eval()
    if quantize == "int8":
        import executorch.kernels.quantized  # noqa: F401  (registers the quantized .out ops)
    with torch.no_grad():
        if quantize == "int8":
            model = quantize_pt2e(model, example, list(calibration) or [example])
        ep = torch.export.export(model, example)
        edge = to_edge_transform_and_lower(
            ep, partitioner=partitioners(delegate, npu_config),
            compile_config=EdgeCompileConfig(_check_ir_validity=False))
        return edge.to_executorch().buffer

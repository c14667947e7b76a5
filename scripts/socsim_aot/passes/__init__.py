"""The front end's graph passes, in the order the compiler runs them.

Each pass is a module with one function `run(g: OnnxGraph, options: Options) -> Report`
that rewrites the ONNX-level graph (socsim_aot/onnx_graph.py) in place and says what it did;
the compile log prints one line per pass ("pass fold_constants: 143 nodes folded (Shape 13,
...)"), and each pass is tested on its own (scripts/test/test_passes.py). A pass may be
switched off by name (`compile_model.py --no-pass NAME`) to see what it buys.

Fusion passes turn a subgraph into one operator the runtime has (RKNN's performance guide,
5.2.4-5.2.5: hardware fusion, subgraph fusion, merging similar operators, NPU-friendly
rewrites): they run only when the operator schema has that operator, so a model compiles
unfused rather than not at all.
"""

import dataclasses
from typing import Callable, Dict, List, Optional

from socsim_aot.onnx_graph import OnnxGraph


@dataclasses.dataclass
class Options:
    """What the passes may assume about the target."""
    npu_operators: Optional[set] = None  # the NPU preset's operator classes (--delegate npu)
    quantize: Optional[str] = None       # "int8" or None
    disabled: tuple = ()                  # pass names not to run

    def npu_runs(self, operator_class: str) -> bool:
        """Whether the program's int8 operators of this NPU class go to the NPU."""
        return self.npu_operators is not None and self.quantize == "int8" and \
            operator_class in self.npu_operators


@dataclasses.dataclass
class Report:
    """What one pass did: `count` rewrites, described per kind in `details`."""
    count: int = 0
    details: Dict[str, int] = dataclasses.field(default_factory=dict)
    note: str = ""

    def add(self, kind: str, n: int = 1):
        self.count += n
        self.details[kind] = self.details.get(kind, 0) + n

    def text(self, unit: str) -> str:
        if not self.count:
            return self.note or "nothing to do"
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.details.items()))
        return f"{self.count} {unit}" + (f" ({kinds})" if kinds else "")


def fusion(g: OnnxGraph, available: bool, missing: str, fuse, *args) -> Report:
    """A fusion pass: `fuse(g, report, *args)` when the schema has the fused operator, else
    a report whose note says what is `missing`."""
    report = Report()
    if available:
        fuse(g, report, *args)
    else:
        report.note = missing
    return report


@dataclasses.dataclass(frozen=True)
class Pass:
    name: str
    run: Callable[[OnnxGraph, Options], Report]
    unit: str  # what `count` counts, for the log ("nodes folded")


def _pipeline() -> List[Pass]:
    from socsim_aot.passes import (batch_norm, channel_shuffle, constant_chains,
                                   einsum_as_matmul, fold_constants, fold_pad, fuse_gelu,
                                   fuse_glu, fuse_layer_norm, fuse_silu, import_qdq, mask_softmax,
                                   no_ops, reduce_as_pool, reshape_chains, transpose_clip,
                                   unroll_rnn)
    from socsim_aot.passes import integer_products
    return [
        Pass("import_qdq", import_qdq.run, "quantisation nodes imported"),
        Pass("fold_constants", fold_constants.run, "nodes folded"),
        Pass("einsum_as_matmul", einsum_as_matmul.run, "Einsum nodes rewritten"),
        Pass("unroll_rnn", unroll_rnn.run, "recurrent nodes unrolled"),
        Pass("remove_no_ops", no_ops.run, "nodes removed"),
        Pass("fuse_masked_softmax", mask_softmax.run, "attention masks fused"),
        Pass("fold_batch_norm", batch_norm.run, "BatchNormalization nodes folded"),
        Pass("fold_pad_into_conv", fold_pad.run, "Pad nodes folded"),
        Pass("merge_constant_chains", constant_chains.run, "nodes merged away"),
        Pass("merge_reshape_transpose", reshape_chains.run, "rewrites"),
        Pass("transpose_past_clip", transpose_clip.run, "Transpose nodes moved"),
        Pass("fuse_layer_norm", fuse_layer_norm.run, "LayerNorm subgraphs fused"),
        Pass("fuse_gelu", fuse_gelu.run, "GELU subgraphs fused"),
        Pass("fuse_glu", fuse_glu.run, "GLU subgraphs fused"),
        Pass("fuse_silu", fuse_silu.run, "SiLU subgraphs fused"),
        Pass("reduce_mean_as_pool", reduce_as_pool.run, "ReduceMean nodes rewritten"),
        Pass("channel_shuffle_as_conv", channel_shuffle.run, "channel shuffles rewritten"),
        Pass("integer_products", integer_products.run, "integer products rewritten"),
    ]


def names() -> List[str]:
    return [p.name for p in _pipeline()]


def run_all(g: OnnxGraph, options: Options, log: Optional[Callable[[str], None]] = None):
    """Runs every pass not disabled, in order; `log` receives one line per pass. Returns
    {pass name: Report}."""
    unknown = [n for n in options.disabled if n not in names()]
    if unknown:
        raise ValueError(f"unknown pass(es) {', '.join(unknown)} (passes: {', '.join(names())})")
    reports = {}
    for p in _pipeline():
        if p.name in options.disabled:
            if log:
                log(f"pass {p.name}: disabled")
            continue
        report = p.run(g, options)
        g.prune()
        reports[p.name] = report
        if log:
            log(f"pass {p.name}: {report.text(p.unit)}")
    return reports

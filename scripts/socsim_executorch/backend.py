"""socsim's delegate backends for ExecuTorch: the NPU and cpu-packed, with their partitioners.

ExecuTorch's public delegation API (executorch.exir.backend): a `Partitioner` tags the nodes
a backend takes; for each tagged partition ExecuTorch calls the backend's
`BackendDetails.preprocess(edge_program, compile_specs)`, whose bytes become the delegate's
processed data in the `.pte`, under the backend's class name as its id. socsim's firmware
registers the same ids (firmware/delegates/): `SocsimNpuBackend` runs the self-contained npu
blob (socsim_aot/npu_pte_blob.py) on the NPU, `SocsimCpuPackedBackend` the cpu-packed int8
add. Each partition's DelegationSpec carries the compile spec `socsim.output_count` (u32):
how many trailing arguments of the DelegateCall are outputs (docs/executorch.md).

The NPU blob is made by socsim's own compiler (scripts/socsim_aot), which needs Debian's
Python with onnx: preprocess runs socsim_executorch/lower_npu.py there in a subprocess
(SOCSIM_LOWER_PYTHON overrides /usr/bin/python3).
"""

import os
import struct
import subprocess
import tempfile
from typing import Dict, List

import torch
from executorch.exir.backend.backend_details import BackendDetails, PreprocessResult
from executorch.exir.backend.compile_spec_schema import CompileSpec
from executorch.exir.backend.partitioner import (DelegationSpec, Partitioner,
                                                 PartitionResult)
from executorch.exir.backend.utils import tag_constant_data
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase

from socsim_executorch import partition

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT_COUNT_SPEC = "socsim.output_count"
NPU_CONFIG_SPEC = "socsim.npu_config"
KEEP_SPEC = "socsim.keep_partitions"  # a folder: preprocess copies each description there
CPU_PACKED_MAGIC, CPU_PACKED_VERSION, CPU_PACKED_OP_ADD = b"CPK1", 1, 1


class LoweringError(RuntimeError):
    """The partition could not be lowered; the message is lower_npu's line."""


def _spec(specs: List[CompileSpec], key: str):
    for s in specs:
        if s.key == key:
            return bytes(s.value)
    return None


class SocsimNpuBackend(BackendDetails):
    @staticmethod
    def preprocess(edge_program, compile_specs: List[CompileSpec]) -> PreprocessResult:
        description, arrays = partition.describe(edge_program)
        config = _spec(compile_specs, NPU_CONFIG_SPEC)
        with tempfile.TemporaryDirectory() as tmp:
            desc_path = os.path.join(tmp, "partition.npz")
            blob_path = os.path.join(tmp, "blob.bin")
            partition.write(desc_path, description, arrays)
            keep = _spec(compile_specs, KEEP_SPEC)
            if keep:
                folder = keep.decode()
                count = len([f for f in os.listdir(folder) if f.startswith("partition")])
                partition.write(os.path.join(folder, f"partition{count}.npz"), description,
                                arrays)
            env = {k: v for k, v in os.environ.items()
                   if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
            env["PYTHONPATH"] = SCRIPTS
            cmd = [os.environ.get("SOCSIM_LOWER_PYTHON", "/usr/bin/python3"), "-m",
                   "socsim_executorch.lower_npu", desc_path, blob_path]
            if config:
                cmd += ["--npu-config", config.decode()]
            result = subprocess.run(cmd, env=env, capture_output=True, text=True)
            if result.returncode != 0:
                lines = (result.stderr.strip() or f"exit status {result.returncode}").splitlines()
                raise LoweringError(lines[-1])
            with open(blob_path, "rb") as f:
                return PreprocessResult(processed_bytes=f.read())


class SocsimCpuPackedBackend(BackendDetails):
    @staticmethod
    def preprocess(edge_program, compile_specs: List[CompileSpec]) -> PreprocessResult:
        adds = [n for n in edge_program.graph.nodes if n.op == "call_function"]
        if len(adds) != 1 or partition.op_name(adds[0]) != "aten.add.Tensor":
            raise LoweringError("cpu-packed takes one int8 add per partition")
        elements = adds[0].meta["val"].numel()
        return PreprocessResult(processed_bytes=CPU_PACKED_MAGIC + struct.pack(
            "<III", CPU_PACKED_VERSION, CPU_PACKED_OP_ADD, elements))


class _Picked(OperatorSupportBase):
    def __init__(self, nodes):
        self.nodes = nodes

    def is_node_supported(self, submodules, node) -> bool:
        return node in self.nodes


def _output_count(nodes) -> int:
    inside = set(nodes)
    return sum(1 for n in nodes if any(u not in inside for u in n.users))


class _SocsimPartitioner(Partitioner):
    backend_id = ""

    def __init__(self, compile_specs: List[CompileSpec] = ()):
        super().__init__()
        self.compile_specs = list(compile_specs)

    def picked(self, ep):
        raise NotImplementedError

    def partition(self, exported_program) -> PartitionResult:
        nodes = self.picked(exported_program)
        parts = CapabilityBasedPartitioner(exported_program.graph_module, _Picked(nodes),
                                           allows_single_node_partition=True
                                           ).propose_partitions()
        tags: Dict[str, DelegationSpec] = {}
        for i, part in enumerate(parts):
            members = list(part.nodes)
            if not any(partition.op_name(n) not in (partition.Q, partition.DQ,
                                                    partition.DQ_CHANNEL) for n in members):
                continue  # quantize/dequantize only: nothing for the backend
            tag = f"{self.backend_id}_{i}"
            for n in members:
                n.meta["delegation_tag"] = tag
            count = struct.pack("<I", _output_count(members))
            tags[tag] = DelegationSpec(self.backend_id, self.compile_specs + [
                CompileSpec(OUTPUT_COUNT_SPEC, count)])
        tag_constant_data(exported_program)
        return PartitionResult(tagged_exported_program=exported_program, partition_tags=tags)


class SocsimNpuPartitioner(_SocsimPartitioner):
    """Claims the quantised operators socsim's NPU runs (partition.npu_nodes)."""
    backend_id = SocsimNpuBackend.__name__

    def __init__(self, npu_config: str = None, keep_partitions: str = None):
        """`npu_config`: the NPU preset whose operator list decides (default: the
        compiler's); `keep_partitions`: a folder where each partition's description is kept
        (partitionN.npz, for lower_npu.py --reference), as given: the program keeps the
        compile spec, so a relative path (from the working directory of the lowering) keeps
        the program's bytes independent of where it was made."""
        specs = [CompileSpec(NPU_CONFIG_SPEC, os.path.abspath(npu_config).encode())] \
            if npu_config else []
        if keep_partitions:
            specs.append(CompileSpec(KEEP_SPEC, keep_partitions.encode()))
        super().__init__(specs)

    def picked(self, ep):
        return partition.npu_nodes(ep)


class SocsimCpuPackedPartitioner(_SocsimPartitioner):
    """Claims every int8 add of two tensors (the seed's add8), as compile_model.py's
    --delegate cpu-packed does."""
    backend_id = SocsimCpuPackedBackend.__name__

    def picked(self, ep):
        out = set()
        for n in ep.graph.nodes:
            if n.op == "call_function" and partition.op_name(n) == "aten.add.Tensor" and \
                    n.meta["val"].dtype == torch.int8 and \
                    all(isinstance(a, torch.fx.Node) and a.meta["val"].shape == n.meta["val"].shape
                        for a in n.args[:2]) and n.kwargs.get("alpha", 1) == 1 and \
                    (len(n.args) < 3 or n.args[2] == 1):
                out.add(n)
        return out

"""Exports the seed's add and add8 as ExecuTorch programs for a list of sizes, in one process
(scripts/socsim_cycle_cost.py's .pte families):

  python -m socsim_executorch.seed_models OUT_DIR --sizes 4,8,1024 [--cpu-packed]

writes OUT_DIR/add_N.pte, add8_N.pte and, with --cpu-packed, add8_N_cpu_packed.pte (the add
delegated to socsim's cpu-packed backend). Inputs follow the zoo's (element i = i % 128).
"""

import argparse
import os
import sys

import numpy as np
import torch


class Add(torch.nn.Module):
    def forward(self, x, y):
        return x + y


def export_add(path: str, size: int, dtype, delegate=None):
    from socsim_executorch.export import export_program
    x = torch.from_numpy((np.arange(size) % 128).astype(dtype))
    data = export_program(Add(), (x, x.clone()), delegate=delegate)
    with open(path, "wb") as f:
        f.write(data)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--sizes", required=True, help="comma-separated element counts")
    parser.add_argument("--models", default="add,add8,add8-cpu-packed",
                        help="which of add, add8, add8-cpu-packed")
    args = parser.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    models = args.models.split(",")
    for n in (int(s) for s in args.sizes.split(",")):
        if "add" in models:
            export_add(os.path.join(args.out_dir, f"add_{n}.pte"), n, np.float32)
        if "add8" in models:
            export_add(os.path.join(args.out_dir, f"add8_{n}.pte"), n, np.int8)
        if "add8-cpu-packed" in models:
            export_add(os.path.join(args.out_dir, f"add8_{n}_cpu_packed.pte"), n, np.int8,
                       "cpu-packed")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.exit(main())

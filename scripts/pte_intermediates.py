#!/usr/bin/env python3
"""Locates the operator whose float32 rounding differs from ExecuTorch's portable runtime.

Exports a small ResNet-like network (stem conv + batch norm + ReLU + max pool, a bottleneck
block with its projection shortcut, global mean, linear; 1x3x32x32, random weights and batch
norm statistics) whose program returns every intermediate result as an output, runs it in
ExecuTorch's portable runtime and in socsim's runtime on the host (socsim_host_runner), and
prints for each intermediate its operator and the largest difference, absolute and relative
to the largest value. The first intermediate that differs names the operator; the ones after
it show how the difference travels. Runs in the pinned environment of
scripts/executorch-venv.sh (docs/executorch.md, "Whole models").

Usage:
  pte_intermediates.py --host-runner build/bin/socsim_host_runner [--out-dir DIR] [--seed N]
  pte_intermediates.py --socsim build/bin/socsim --runner RUNNER.elf ...   (on the simulated
                                     SoC: the executor_runner's printed outputs)
Exit status 0 when every intermediate is within 1e-5 of its largest value, 1 otherwise.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np


def resnet_like():
    import torch
    nn = torch.nn

    def bn(c):
        b = nn.BatchNorm2d(c)
        b.running_mean.uniform_(-0.5, 0.5)
        b.running_var.uniform_(0.2, 2.0)
        b.weight.data.uniform_(0.5, 1.5)
        b.bias.data.uniform_(-0.2, 0.2)
        return b

    class ResNetLike(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.bn1 = nn.Conv2d(3, 16, 7, 2, 3, bias=False), bn(16)
            self.conv2, self.bn2 = nn.Conv2d(16, 8, 1, bias=False), bn(8)
            self.conv3, self.bn3 = nn.Conv2d(8, 8, 3, padding=1, bias=False), bn(8)
            self.conv4, self.bn4 = nn.Conv2d(8, 32, 1, bias=False), bn(32)
            self.down, self.bn_down = nn.Conv2d(16, 32, 1, bias=False), bn(32)
            self.fc = nn.Linear(32, 10)

        def forward(self, x):
            c1 = self.conv1(x)
            b1 = self.bn1(c1)
            p = nn.functional.max_pool2d(torch.relu(b1), 3, 2, 1)
            y = torch.relu(self.bn2(self.conv2(p)))
            y = torch.relu(self.bn3(self.conv3(y)))
            y = self.bn4(self.conv4(y))
            s = torch.relu(y + self.bn_down(self.down(p)))
            m = s.mean([2, 3])
            return c1, b1, p, y, s, m, self.fc(m)

    return ResNetLike().eval()


NAMES = ("convolution (stem)", "batch norm (stem)", "relu + max pool",
         "bottleneck's last batch norm", "residual add + relu", "mean", "addmm (linear)")


def outputs_of(args, pte, input_path, folder):
    """socsim's outputs, every float32 in order (None after printing the failure)."""
    if args.socsim and args.runner:
        cmd = [args.socsim, "run", "-q", "--firmware", args.runner, "--model", pte, "--input",
               input_path, "--max-cycles", "2000000000", "--", "--print-outputs"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        values = re.findall(r"^res\[(\d+)\] = (\S+)$", run.stdout, re.M)
        if run.returncode == 0 and values:
            return np.array([float(v) for _, v in sorted((int(i), v) for i, v in values)],
                            np.float64)
    elif args.host_runner:
        got_path = os.path.join(folder, "socsim.bin")
        cmd = [args.host_runner, pte, input_path, got_path]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode == 0:
            return np.fromfile(got_path, np.float32)
    else:
        raise SystemExit("pte_intermediates: give --host-runner, or --socsim and --runner")
    print(run.stdout[-2000:] + run.stderr[-2000:], end="")
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--host-runner", help="socsim_host_runner binary")
    parser.add_argument("--socsim", help="socsim binary (with --runner: run on the SoC)")
    parser.add_argument("--runner", help="executor_runner firmware (ELF)")
    parser.add_argument("--out-dir", help="keep the program and outputs here")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import torch
    from torch.export import export
    from executorch.exir import to_edge
    from executorch.extension.pybindings.portable_lib import _load_for_executorch

    torch.manual_seed(args.seed)
    module = resnet_like()
    x = torch.randn(1, 3, 32, 32)
    with torch.no_grad():
        program = to_edge(export(module, (x,))).to_executorch()
    folder = args.out_dir or tempfile.mkdtemp(prefix="pte_intermediates_")
    os.makedirs(folder, exist_ok=True)
    pte = os.path.join(folder, "resnet_like.pte")
    with open(pte, "wb") as f:
        f.write(program.buffer)
    with open(os.path.join(folder, "input.bin"), "wb") as f:
        f.write(x.numpy().tobytes())
    want = [o.numpy() for o in _load_for_executorch(pte).forward([x])]
    raw = outputs_of(args, pte, os.path.join(folder, "input.bin"), folder)
    if raw is None:
        return 1
    worst, at = 0.0, 0
    print(f"{'intermediate':32} {'elements':>8} {'max abs diff':>12} {'largest':>9} "
          f"{'relative':>9}")
    for name, w in zip(NAMES, want):
        g = raw[at:at + w.size].reshape(w.shape)
        at += w.size
        diff = float(np.abs(g.astype(np.float64) - w).max())
        largest = float(np.abs(w).max())
        worst = max(worst, diff / largest)
        print(f"{name:32} {w.size:8} {diff:12.3g} {largest:9.4g} {diff / largest:9.2g}")
    return 0 if worst <= 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())

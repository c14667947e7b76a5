"""Exports the torch 2 ONNX fixtures (scripts/test/fixtures/torch2/): zoo models written by
torch 2's exporter (`torch.onnx.export(..., dynamo=True)`, opset 18), with their weights, so
that the default suite (torch 1.13) can export the same modules with the same weights and
check that both files compile to the same program (scripts/test/test_opsets.py).

Runs in torch 2 with onnxscript: `scripts/torch2-onnx-env.sh scripts/gen_torch2_onnx_fixtures.py`
(exports are deterministic: a second run writes the same bytes). For each model NAME it
writes NAME.onnx (opset 18, weights inside) and NAME.weights.npz (the module's state_dict as
float32 arrays, for the torch 1.13 export).

Usage: gen_torch2_onnx_fixtures.py [OUT_DIR]   (default: scripts/test/fixtures/torch2)
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from socsim_aot import torch_models  # noqa: E402  (imports nothing but torch)

# name: (module factory, input shape)
MODELS = {"convnet": (torch_models.make_convnet, (1, 3, 16, 16)),
          "opset_probe": (torch_models.make_opset_probe, (1, 8, 8, 8))}
OPSET = 18


def export(name: str, out_dir: str):
    import numpy as np
    import torch
    make, shape = MODELS[name]
    torch.manual_seed(0)
    module = make().eval()
    path = os.path.join(out_dir, name + ".onnx")
    with torch.no_grad():
        program = torch.onnx.export(module, (torch.randn(*shape),), dynamo=True,
                                    opset_version=OPSET, input_names=["input"],
                                    output_names=["output"])
    program.save(path, external_data=False)
    np.savez(os.path.join(out_dir, name + ".weights.npz"),
             **{k: v.detach().numpy().astype(np.float32) for k, v in
                module.state_dict().items()})
    print(f"gen_torch2_onnx_fixtures: wrote {path}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Export the torch 2 (dynamo) ONNX fixtures "
                                     "of the opset tests.")
    parser.add_argument("out_dir", nargs="?", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "test", "fixtures", "torch2"))
    args = parser.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    for name in MODELS:
        export(name, args.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())

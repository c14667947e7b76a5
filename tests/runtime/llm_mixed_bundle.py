#!/usr/bin/env python3
"""Writes a language-model bundle whose prefill program is taken from one bundle and whose
decode program from another (the runner's test of a bundle mixing the ExecuTorch and the
legacy program format: it must refuse it with one line)."""

import argparse
import os
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts"))
from socsim_llm import bundle  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("prefill_from", help="bundle whose prefill program is taken")
    parser.add_argument("decode_from", help="bundle whose decode program is taken")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    with open(args.prefill_from, "rb") as f:
        fields, prefill, _ = bundle.read(f.read())
    with open(args.decode_from, "rb") as f:
        other, _, decode = bundle.read(f.read())
    if other != fields:
        print(f"llm_mixed_bundle: the bundles differ in their header fields: {fields} vs "
              f"{other}", file=sys.stderr)
        return 1
    with open(args.output, "wb") as f:
        f.write(bundle.write(types.SimpleNamespace(**fields), fields["prompt"], prefill, decode))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The operator schema against everything written by hand about it: the layout tables of
docs/program-format.md and docs/npu.md, the operator examples of docs/runtime.md (the full
table is printed by compile_model.py --list-operators), the kernel and NPU layer source files
it names, and the argument lists' packing."""

import os
import subprocess
import sys
import unittest

from socsim_aot import schema
from socsim_schema import layouts

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
TYPE_NAMES = {"u8": "u8", "u16": "u16", "u32": "u32", "i32": "i32", "f32": "f32", "char": "char"}


def doc(name):
    with open(os.path.join(ROOT, "docs", name)) as f:
        return f.read()


def section(text, heading):
    """The text of a markdown section, from its heading to the next heading of any level."""
    start = text.index(heading)
    end = text.find("\n#", start + len(heading))
    return text[start:end if end >= 0 else len(text)]


def table_rows(text):
    """The cells of every row of the first table in `text` (header and rule left out)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            break
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows[2:]]


def layout_rows(record):
    """(offset, type, field) as the docs write them: 0x1C, u32[6], dims."""
    out = []
    for f in record.fields:
        kind = TYPE_NAMES[f.type] + (f"[{f.count}]" if f.count > 1 else "")
        out.append((f"0x{record.offset(f.name):02X}", kind, f.name))
    return out


class LayoutTablesTest(unittest.TestCase):
    CASES = (("program-format.md", "## Header (64 bytes)", layouts.PROGRAM_HEADER),
             ("program-format.md", "## Tensor record (64 bytes)", layouts.TENSOR_RECORD),
             ("program-format.md", "## Instruction record (32 bytes)", layouts.INSTRUCTION_RECORD),
             ("program-format.md", "## Planned buffer record (4 bytes)", layouts.BUFFER_RECORD),
             ("program-format.md", "## Delegate record (16 bytes)", layouts.DELEGATE_RECORD),
             ("program-format.md", "`cpu-packed` (int8 add", layouts.CPU_PACKED_BLOB),
             ("npu.md", "## Layer descriptors (176 bytes", layouts.NPU_DESCRIPTOR))

    def test_docs_tables_are_the_schema_layouts(self):
        for page, heading, record in self.CASES:
            rows = table_rows(section(doc(page), heading))
            got = [(r[0], r[1], r[2]) for r in rows]
            self.assertEqual(got, layout_rows(record), f"docs/{page}, {heading}")

    def test_header_sizes_in_headings(self):
        text = doc("program-format.md")
        for record in layouts.PROGRAM_RECORDS:
            self.assertIn(f"({record.size} bytes)", text, record.name)
        self.assertIn(f"({layouts.NPU_DESCRIPTOR.size} bytes", doc("npu.md"))

    def test_documented_version_is_the_schema_version(self):
        rows = table_rows(section(doc("program-format.md"), "## Header (64 bytes)"))
        major = [r for r in rows if r[2] == "version_major"][0]
        self.assertTrue(major[3].startswith(f"{layouts.PROGRAM_VERSION_MAJOR};"), major)

    def test_records_round_trip(self):
        d = layouts.NPU_DESCRIPTOR
        data = d.pack(op=3, dtype=2, arg_count=2, post_op=8, addr=[1, 2, 3, 4, 5, 6],
                      args=[-7, 9], name=b"x")
        self.assertEqual(len(data), 176)
        back = d.unpack(data)
        self.assertEqual((back["op"], back["post_op"], back["addr"], back["args"][:3]),
                         (3, 8, [1, 2, 3, 4, 5, 6], [-7, 9, 0]))
        self.assertEqual(back["name"], b"x" + bytes(31))


class OperatorTableTest(unittest.TestCase):
    def test_list_operators_prints_every_operator(self):
        result = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "compile_model.py"),
                                 "--list-operators"], capture_output=True, text=True, check=True)
        rows = table_rows(result.stdout)
        self.assertEqual([r[0].strip("`") for r in rows], [op.name for op in schema.operators()])
        add = [r for r in rows if r[0] == "`quantized_decomposed::add.out`"][0]
        self.assertEqual(add[3], "zp_a, m_a, zp_b, m_b, n, zp_out, act_min, act_max")
        self.assertEqual(add[5], "3, Add, add")

    def test_docs_examples_are_schema_rows(self):
        """The example rows docs/runtime.md shows are rows of the table the tool prints."""
        text = section(doc("runtime.md"), "## Operators")
        example = text[text.index("```") + 3:text.index("```", text.index("```") + 3)]
        rows = [line for line in example.splitlines() if line.startswith("| `")]
        self.assertGreater(len(rows), 2)
        table = schema.operator_table().splitlines()
        for row in rows:
            self.assertIn(row, table)


class KernelSignaturesTest(unittest.TestCase):
    """The typed kernel signatures and wrappers generated from the schema (unboxing.py)."""

    def setUp(self):
        from socsim_schema import generate, unboxing
        self.text = unboxing.signatures_header(generate.HEADER)

    def block(self, op_type: str) -> str:
        start = self.text.index(f"struct Unboxed<ops::{op_type}> {{")
        return self.text[start:self.text.index("};", start)]

    def test_every_operator_with_a_kernel_has_a_wrapper(self):
        for op in schema.operators():
            if op.dtypes:
                self.assertIn(f"struct Unboxed<ops::{schema.core.camel(op.ident)}>", self.text)

    def test_wrapper_checks_what_the_schema_declares(self):
        conv = self.block("QuantizedConvolution")
        self.assertIn("k.input_count != 4", conv)
        self.assertIn("k.arg_count != 13", conv)
        self.assertIn("k.inputs[1]->dtype != ScalarType::kInt8", conv)  # weight
        self.assertIn("k.outputs[0]->dtype != ScalarType::kInt8", conv)
        pad = self.block("ConstantPadNd")  # two words per axis
        self.assertIn("k.arg_count != ops::ConstantPadNd::kScalarArgs + 2 * k.inputs[0]->rank",
                      pad)
        cat = self.block("Cat")  # variadic: at least one tensor, all of the key's type
        self.assertIn("k.input_count < 1", cat)
        self.assertIn("TensorList x", cat)

    def test_per_axis_needs_a_list(self):
        with self.assertRaises(ValueError):
            schema.Arg("dim", "int32", per_axis=2)
        self.assertEqual(schema.get("aten::slice_copy.Tensor_out").arg("slices").per_axis, 2)


class SchemaSourcesTest(unittest.TestCase):
    def test_named_source_files_exist(self):
        for op in schema.operators():
            if op.kernel:
                path = os.path.join(ROOT, "firmware", "kernels", f"op_{op.kernel}.cpp")
                self.assertTrue(os.path.exists(path), path)
            if op.npu is not None:
                path = os.path.join(ROOT, "models", "npu", "layers", f"{op.npu.source}.cpp")
                self.assertTrue(os.path.exists(path), path)
                for operand in op.inputs + op.outputs:
                    self.assertIn(operand.npu_slot, layouts.NPU_SLOTS, (op.name, operand))

    def test_every_onnx_operator_has_one_target(self):
        table = schema.onnx_operators()
        self.assertIn("Conv", table)
        self.assertEqual(table["Flatten"].name, "aten::view_copy.out")

    def test_quantized_variants_exist(self):
        for op in schema.operators():
            if op.quantized:
                self.assertEqual(schema.get(op.quantized).dtypes[0], "int8", op.name)

    def test_arguments_pack_by_name(self):
        op = schema.get("quantized_decomposed::avg_pool2d.out")
        values = {a.name: (i % 2 if a.type == "bool" else i) for i, a in enumerate(op.args)}
        words = schema.pack_args(op, values)
        self.assertEqual(words, [values[a.name] for a in op.args])
        back = schema.unpack_args(op, words)
        self.assertEqual(back.zp_out, values["zp_out"])
        with self.assertRaises(ValueError):
            schema.pack_args(op, {k: v for k, v in values.items() if k != "m"})
        with self.assertRaises(ValueError):
            schema.pack_args(op, dict(values, bogus=1))
        clamp = schema.get("aten::clamp.out")
        self.assertEqual(schema.unpack_args(clamp, schema.pack_args(
            clamp, dict(lo=-1.5, hi=float("inf")))).lo, -1.5)
        perm = schema.get("aten::permute_copy.out")
        self.assertEqual(schema.unpack_args(perm, [2, 0, 1]).perm, [2, 0, 1])


if __name__ == "__main__":
    unittest.main()

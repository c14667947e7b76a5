"""The language-model bundle the firmware runner reads (docs/llm.md, "The bundle file"): a
64-byte header and two socsim program files, the prefill program and the decode-step
program, each at a 64-byte aligned offset. All fields are little-endian uint32.

| offset | field |
|---|---|
| 0 | magic "SLM1" |
| 4 | version (1) |
| 8 | layers |
| 12 | heads |
| 16 | head_dim |
| 20 | context (T: cache rows, position table rows) |
| 24 | vocab |
| 28 | prompt (N: the prefill program's token count) |
| 32, 36 | prefill program: offset, size |
| 40, 44 | decode program: offset, size |
| 48..63 | zero |
"""

import struct

MAGIC = b"SLM1"
VERSION = 1
HEADER = 64
FIELDS = ("layers", "heads", "head_dim", "context", "vocab", "prompt")


def _align(n: int) -> int:
    return (n + 63) // 64 * 64


def write(config, prompt: int, prefill: bytes, decode: bytes) -> bytes:
    pre_off = HEADER
    dec_off = _align(pre_off + len(prefill))
    head = MAGIC + struct.pack("<11I", VERSION, config.layers, config.heads, config.head_dim,
                               config.context, config.vocab, prompt, pre_off, len(prefill),
                               dec_off, len(decode))
    head += bytes(HEADER - len(head))
    body = prefill + bytes(dec_off - pre_off - len(prefill)) + decode
    return head + body


def read(data: bytes):
    """(fields dict, prefill bytes, decode bytes); ValueError naming the field if malformed."""
    if len(data) < HEADER or data[:4] != MAGIC:
        raise ValueError("not a language-model bundle (magic SLM1)")
    values = struct.unpack_from("<11I", data, 4)
    if values[0] != VERSION:
        raise ValueError(f"bundle version {values[0]}, expected {VERSION}")
    fields = dict(zip(FIELDS, values[1:7]))
    pre_off, pre_size, dec_off, dec_size = values[7:]
    for name, off, size in (("prefill", pre_off, pre_size), ("decode", dec_off, dec_size)):
        if off % 64 or off + size > len(data):
            raise ValueError(f"bundle: {name} program at {off}+{size} outside the file")
    return fields, data[pre_off:pre_off + pre_size], data[dec_off:dec_off + dec_size]

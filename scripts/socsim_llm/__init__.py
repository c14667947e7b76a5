"""A decoder-only language model of socsim's own definition, for prefill and token-by-token
decode on the simulated SoC (docs/llm.md): the torch module, its ONNX exports (a prefill
program and a decode-step program with the KV cache as inputs and outputs), the bundle file
the firmware runner reads, and the torch reference of greedy generation."""

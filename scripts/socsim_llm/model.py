"""The decoder: token embedding and a learnt position table, pre-norm blocks (LayerNorm,
multi-head causal attention, GELU MLP), a final LayerNorm and a head tied to the embedding.

Three ways to run the same weights:
- `forward_full(ids)`: the whole sequence with a causal mask (the torch reference);
- `Prefill`: a prompt of N tokens (ids [1, N]) -> the last position's logits [1, vocab] and
  every layer's keys and values, keys transposed ([H, Dh, N]) and values as they are
  ([H, N, Dh]);
- `DecodeStep`: one token (ids [1, 1]) at position p (pos [1, 1]), with the cache of
  positions < p as inputs (keys [H, Dh, T], values [H, T, Dh], T the context) and a bool
  mask [H, 1, T + 1] (True: excluded; the last column is the token itself) -> logits and the
  token's key column [H, Dh, 1] and value row [H, 1, Dh], which the runner writes into the
  cache at p.

Keys are kept transposed so that both attention products read the cache as a matmul's right
operand without a transpose (scores = q @ K^T, out = p @ V).
"""

import dataclasses
import math


def _torch():
    import torch
    return torch


@dataclasses.dataclass(frozen=True)
class Config:
    layers: int = 4
    d_model: int = 256
    heads: int = 4
    vocab: int = 4096
    context: int = 256
    ff: int = 0              # MLP width; 0: 4 x d_model
    logit_std: float = 4.0   # the init's target spread of the logits (not flat)
    block_gain: float = 1.0  # the blocks' output projections' gain (residual contributions)
    position_std: float = 1.0  # the position table's standard deviation
    seed: int = 0

    @property
    def head_dim(self) -> int:
        return self.d_model // self.heads

    @property
    def ff_width(self) -> int:
        return self.ff or 4 * self.d_model


SIZES = {
    # name: Config. "tiny" is the checked-in test fixture's size.
    "tiny": Config(layers=2, d_model=64, heads=2, vocab=256, context=32, ff=128),
    "small": Config(layers=4, d_model=256, heads=4, vocab=4096, context=256),
    "medium": Config(layers=6, d_model=384, heads=6, vocab=4096, context=256),
}


def build(config: Config):
    """The decoder with random weights scaled for healthy activations: linear weights of
    standard deviation 1/sqrt(fan_in) (unit-variance outputs), the blocks' output projections
    by a further 1/sqrt(2 layers) (the residual stream stays near unit variance), the
    embedding by logit_std/sqrt(d_model), so that the tied head's logits (final LayerNorm:
    unit variance, times the embedding) have a spread near logit_std."""
    torch = _torch()
    nn = torch.nn
    F = torch.nn.functional
    c = config
    torch.manual_seed(c.seed)

    def linear(fan_in, fan_out, gain=1.0):
        layer = nn.Linear(fan_in, fan_out)
        nn.init.normal_(layer.weight, 0.0, gain / math.sqrt(fan_in))
        nn.init.normal_(layer.bias, 0.0, 0.02)
        return layer

    class Block(nn.Module):
        """Activations are [n, d_model] (one sequence): torch exports each Linear as one Gemm
        with its bias, a fully connected layer of the NPU. The attention scale 1/sqrt(Dh) is
        folded into the query projection's weights and bias at construction."""

        def __init__(self):
            super().__init__()
            residual = c.block_gain
            self.norm1, self.norm2 = nn.LayerNorm(c.d_model), nn.LayerNorm(c.d_model)
            self.q, self.k, self.v = (linear(c.d_model, c.d_model) for _ in range(3))
            with torch.no_grad():
                self.q.weight.mul_(1.0 / math.sqrt(c.head_dim))
                self.q.bias.mul_(1.0 / math.sqrt(c.head_dim))
            self.proj = linear(c.d_model, c.d_model, residual)
            self.up = linear(c.d_model, c.ff_width)
            self.down = linear(c.ff_width, c.d_model, residual)

        def heads(self, x, n):
            return x.view(n, c.heads, c.head_dim).transpose(0, 1)       # [H, n, Dh]

        def qkv(self, x, n):
            h = self.norm1(x)
            q = self.heads(self.q(h), n)
            kt = self.heads(self.k(h), n).transpose(1, 2)                # [H, Dh, n]
            return q, kt, self.heads(self.v(h), n)

        def finish(self, x, att, n):
            x = x + self.proj(att.transpose(0, 1).reshape(n, c.d_model))
            return x + self.down(F.gelu(self.up(self.norm2(x))))

        def full(self, x, causal):
            n = x.shape[0]
            q, kt, v = self.qkv(x, n)
            scores = (q @ kt).masked_fill(causal, float("-inf"))
            return self.finish(x, torch.softmax(scores, -1) @ v, n), kt, v

        def step(self, x, mask, kt_cache, v_cache):
            q, kt, v = self.qkv(x, 1)
            scores = torch.cat([q @ kt_cache, q @ kt], -1).masked_fill(mask, float("-inf"))
            p = torch.softmax(scores, -1)
            att = p[..., :c.context] @ v_cache + p[..., c.context:] @ v
            return self.finish(x, att, 1), kt, v

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.config = c
            self.embed = nn.Embedding(c.vocab, c.d_model)
            nn.init.normal_(self.embed.weight, 0.0, c.logit_std / math.sqrt(c.d_model))
            self.position = nn.Embedding(c.context, c.d_model)
            nn.init.normal_(self.position.weight, 0.0, c.position_std)
            self.blocks = nn.ModuleList(Block() for _ in range(c.layers))
            self.norm = nn.LayerNorm(c.d_model)

        def head(self, x):
            return F.linear(self.norm(x), self.embed.weight)   # tied to the embedding

        def forward_full(self, ids):
            """Logits [n, vocab] of every position of ids [n] (no cache)."""
            n = ids.shape[0]
            x = self.embed(ids) + self.position(torch.arange(n))
            causal = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
            for block in self.blocks:
                x = block.full(x, causal)[0]
            return self.head(x)

    return Decoder().eval()


class Prefill:
    """The module exported as the prefill program (a wrapper, built on demand)."""

    @staticmethod
    def module(decoder, prompt: int):
        torch = _torch()

        class PrefillModule(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.d = decoder
                self.register_buffer("causal",
                                     torch.triu(torch.ones(prompt, prompt, dtype=torch.bool), 1))
                self.register_buffer("positions", torch.arange(prompt))

            def forward(self, ids):
                x = self.d.embed(ids.reshape(-1)) + self.d.position(self.positions)
                caches = []
                for block in self.d.blocks:
                    x, kt, v = block.full(x, self.causal)
                    caches += [kt, v]
                return (self.d.head(x[-1:]),) + tuple(caches)
        return PrefillModule().eval()


class DecodeStep:
    @staticmethod
    def module(decoder):
        torch = _torch()

        class DecodeModule(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.d = decoder

            def forward(self, ids, pos, mask, *caches):
                x = self.d.embed(ids.reshape(1)) + self.d.position(pos.reshape(1))
                news = []
                for i, block in enumerate(self.d.blocks):
                    x, kt, v = block.step(x, mask, caches[2 * i], caches[2 * i + 1])
                    news += [kt, v]
                return (self.d.head(x),) + tuple(news)
        return DecodeModule().eval()


def input_names(config: Config):
    return ["ids", "pos", "mask"] + cache_names(config)


def cache_names(config: Config):
    return [f"{kind}{i}" for i in range(config.layers) for kind in ("k", "v")]


def decode_output_names(config: Config):
    return ["logits"] + [n + "_new" for n in cache_names(config)]


def greedy(decoder, prompt_ids, steps: int):
    """Greedy generation with full recomputation (no cache): the generated tokens and the
    logits that chose each ([steps, vocab]; the first from the prompt)."""
    torch = _torch()
    ids = list(prompt_ids)
    logits = []
    with torch.no_grad():
        for _ in range(steps):
            out = decoder.forward_full(torch.tensor(ids))[-1]
            logits.append(out.numpy())
            ids.append(int(out.argmax()))
    import numpy as np
    return ids[len(prompt_ids):], np.stack(logits)

"""torch modules shared by the model zoo (zoo.py) and the ExecuTorch fixture exporter
(scripts/gen_pte_fixtures.py).

Imports nothing but torch, lazily, so that it loads in the default environment (torch 1.13)
and in the ExecuTorch one (torch 2, its own numpy) alike: keep it that way (no numpy, onnx
or compiler imports here).
"""


def make_convnet():
    """conv+relu+maxpool, conv+relu, global average pool, linear (1x3x16x16 input).

    The weights come from torch's current random state: callers seed it."""
    import torch  # imported lazily: --help must work without it
    nn = torch.nn

    class ConvNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
            self.pool = nn.MaxPool2d(2)
            self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
            self.gap = nn.AdaptiveAvgPool2d(1)
            self.fc = nn.Linear(16, 10)

        def forward(self, x):
            x = self.pool(torch.relu(self.conv1(x)))
            x = torch.relu(self.conv2(x))
            return self.fc(torch.flatten(self.gap(x), 1))

    return ConvNet()


def make_opset_probe():
    """What exporters write differently from one opset to the next (1x8x8x8 input): a
    zero Pad, ReduceMean over channels (axes an input since opset 18), chunk (Split: sizes
    or num_outputs), unsqueeze/squeeze (axes inputs), nearest upsampling (Resize), LayerNorm
    and GELU, softmax, linear.

    The weights come from torch's current random state: callers seed it."""
    import torch  # imported lazily: --help must work without it
    nn = torch.nn

    class OpsetProbe(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(8, 8, 3)
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.norm = nn.LayerNorm(16)
            self.fc = nn.Linear(16, 10)

        def forward(self, x):
            x = self.conv(nn.functional.pad(x, (1, 1, 1, 1)))
            a, b = torch.chunk(x, 2, dim=1)
            x = torch.relu(a) * torch.sigmoid(b)
            x = x - x.mean(dim=1, keepdim=True)
            x = self.up(x).unsqueeze(0).squeeze(0)
            x = x.reshape(1, 4, 16, 16).mean(dim=2)
            x = nn.functional.gelu(self.norm(x))
            return torch.softmax(self.fc(x), dim=-1)

    return OpsetProbe()

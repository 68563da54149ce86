"""model.py - the trainer's GPT (trainer/model.h) in PyTorch, as the reference
for bench/torch/bench.py: same layers, same initialisation scales, same
rotary convention, logit soft-cap and RMSNorm eps. Benchmark code only; the
trainer never imports it.

x = wte[tokens]; per block: h = rmsnorm(x); q,k,v = h Wq^T, h Wk^T, h Wv^T;
qk-norm per head; rotary; x += sdpa_causal(q,k,v) Wo^T; h = rmsnorm(x);
x += relu(h Wfc^T)^2 Wproj^T; logits = rmsnorm(x) Wlm^T, soft-capped;
cross-entropy.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EPS = 1e-6  # trainer/ops.c RMS_EPS


def rmsnorm(x):
    return F.rms_norm(x, (x.size(-1),), eps=EPS)


def rotary_table(T, D, device):
    i = torch.arange(D // 2, dtype=torch.float64, device=device)
    freq = 10000.0 ** (-2.0 * i / D)
    ang = torch.arange(T, dtype=torch.float64, device=device)[:, None] * freq[None, :]
    return ang.cos().float(), ang.sin().float()


def rotate(x, cos, sin):
    # x (B, H, T, D); pairs (i, i + D/2): y1 = x1 cos - x2 sin, y2 = x1 sin + x2 cos
    d = x.size(-1) // 2
    x1, x2 = x[..., :d], x[..., d:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


class Block(nn.Module):
    def __init__(self, dim, heads, hidden):
        super().__init__()
        self.heads = heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.wfc = nn.Linear(dim, hidden, bias=False)
        self.wproj = nn.Linear(hidden, dim, bias=False)

    def forward(self, x, cos, sin, qk_norm):
        B, T, C = x.shape
        H = self.heads
        h = rmsnorm(x)
        q = self.wq(h).view(B, T, H, C // H).transpose(1, 2)
        k = self.wk(h).view(B, T, H, C // H).transpose(1, 2)
        v = self.wv(h).view(B, T, H, C // H).transpose(1, 2)
        if qk_norm:
            q, k = rmsnorm(q), rmsnorm(k)
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.wo(y.transpose(1, 2).reshape(B, T, C))
        x = x + self.wproj(F.relu(self.wfc(rmsnorm(x))).square())
        return x


class GPT(nn.Module):
    def __init__(self, depth=8, dim=512, heads=4, seq_len=2048, vocab=256, mlp_ratio=4,
                 qk_norm=True, softcap=15.0):
        super().__init__()
        self.qk_norm, self.softcap = qk_norm, softcap
        self.wte = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(Block(dim, heads, round(mlp_ratio * dim)) for _ in range(depth))
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        cos, sin = rotary_table(seq_len, dim // heads, "cpu")
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        self.reset_parameters()

    @torch.no_grad()
    def reset_parameters(self):
        # model_init_weights: wte N(0,1); wq wk wv wfc U(+-sqrt(3/cols));
        # wo, wproj zero; lm_head N(0, 0.001^2)
        nn.init.normal_(self.wte.weight, 0.0, 1.0)
        for b in self.blocks:
            for lin in (b.wq, b.wk, b.wv, b.wfc):
                bound = math.sqrt(3.0 / lin.weight.size(1))
                nn.init.uniform_(lin.weight, -bound, bound)
            nn.init.zeros_(b.wo.weight)
            nn.init.zeros_(b.wproj.weight)
        nn.init.normal_(self.lm_head.weight, 0.0, 0.001)

    def forward(self, idx, targets):
        T = idx.size(1)
        x = self.wte(idx)
        cos, sin = self.cos[:T], self.sin[:T]
        for b in self.blocks:
            x = b(x, cos, sin, self.qk_norm)
        logits = self.lm_head(rmsnorm(x)).float()
        if self.softcap > 0:
            logits = self.softcap * torch.tanh(logits / self.softcap)
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))

    def flops_per_token(self):
        # model_flops_per_token (trainer/model.c): 6 x matrix params incl. the
        # head, not the embedding, + 12 L T C for attention
        C = self.wte.weight.size(1)
        L = len(self.blocks)
        F_ = self.blocks[0].wfc.weight.size(0)
        V = self.lm_head.weight.size(0)
        T = self.cos.size(0)
        matrix = L * (4.0 * C * C + 2.0 * C * F_) + V * C
        return 6.0 * matrix + 12.0 * L * T * C

"""Flash-attention throughput through PyTorch's SDPA on the local GPU (docs/calibration.md).

Not part of the calibration (that is C++, cuBLASLt only): a cross-check of the built-in profile's
attention efficiencies, whose values come from published FlashAttention-2/3 figures. Causal, bf16,
head size 128, 16K tokens per batch (the FlashAttention-3 paper's setting), forward and forward+backward,
for each SDPA backend that runs. Prints one line per measurement; needs torch with CUDA.
"""
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel


def bench(fn, warmup=3, reps=10):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    times.sort()
    return times[len(times) // 2]


def main():
    if not torch.cuda.is_available():
        print("SKIPPED: torch sees no GPU")
        return 0
    dev = torch.cuda.get_device_properties(0)
    print(f"device: {dev.name}, {dev.multi_processor_count} SMs, torch {torch.__version__}")
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    t = bench(lambda: a @ b)
    print(f"torch.matmul bf16 8192^3: {2 * 8192**3 / t / 1e12:.1f} TFLOP/s")
    head, heads, tokens = 128, 16, 16384
    backends = [("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION),
                ("efficient", SDPBackend.EFFICIENT_ATTENTION)]
    for seq in (1024, 2048, 4096, 8192, 16384):
        batch = tokens // seq
        q, k, v = (torch.randn(batch, heads, seq, head, device="cuda", dtype=torch.bfloat16,
                               requires_grad=True) for _ in range(3))
        fwd_flops = 4 * batch * heads * seq * seq * head / 2  # causal: half the score matrix
        for name, backend in backends:
            try:
                with sdpa_kernel(backend):
                    f = lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
                    out = f()
                    grad = torch.randn_like(out)
                    tf = bench(f)
                    tb = bench(lambda: torch.autograd.grad(f(), (q, k, v), grad))
                print(f"sdpa {name:9s} seq {seq:5d} batch {batch:2d}: fwd {fwd_flops / tf / 1e12:6.1f} TFLOP/s, "
                      f"bwd {2.5 * fwd_flops / (tb - tf) / 1e12:6.1f} TFLOP/s, fwd+bwd {3.5 * fwd_flops / tb / 1e12:6.1f}")
            except Exception as e:  # a backend that does not support the GPU or shape
                print(f"sdpa {name:9s} seq {seq:5d}: not run: {str(e).splitlines()[0][:120]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

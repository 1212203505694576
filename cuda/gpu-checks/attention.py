"""Flash-attention throughput through PyTorch's SDPA on the local GPU (docs/calibration.md).

Not part of the calibration (that is C++, cuBLASLt only): a cross-check of the profiles' attention
efficiencies. Causal, bf16, 16K tokens per batch (the FlashAttention-3 paper's setting), heads of 128
(and of 64 at 2K and 4K), forward and backward, for the flash (FlashAttention-2) and cuDNN backends of
scaled_dot_product_attention: first in short samples, then held back to back for a few seconds as the
GEMM hold of `calibrate` does (median of the second half of quarter-second windows). Ends with an
8192-cube bf16 GEMM timed both ways. Prints one line per measurement; needs torch with CUDA.
"""
import sys
import time

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

HOLD_SECONDS = 3.0


def event():
    return torch.cuda.Event(enable_timing=True)


def short(fn, reps=10):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = event(), event()
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    times.sort()
    return times[len(times) // 2]


def held(fn, seconds=HOLD_SECONDS):
    t0 = time.time()
    windows = []
    while time.time() - t0 < seconds:
        start, end = event(), event()
        start.record()
        runs = 0
        while True:
            fn()
            runs += 1
            if runs % 8 == 0:
                end.record()
                end.synchronize()
                if start.elapsed_time(end) > 250:
                    break
        windows.append(start.elapsed_time(end) / 1e3 / runs)
    settled = sorted(windows[len(windows) // 2:])
    return settled[len(settled) // 2]


def main():
    if not torch.cuda.is_available():
        print("SKIPPED: torch sees no GPU")
        return 0
    dev = torch.cuda.get_device_properties(0)
    print(f"device: {dev.name}, {dev.multi_processor_count} SMs, torch {torch.__version__}, "
          f"cuDNN {torch.backends.cudnn.version()}")
    tokens = 16384
    backends = [("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION)]
    for head, heads, seqs in ((128, 16, (1024, 2048, 4096, 8192, 16384)), (64, 32, (2048, 4096))):
        for name, backend in backends:
            for seq in seqs:
                batch = tokens // seq
                q, k, v = (torch.randn(batch, heads, seq, head, device="cuda", dtype=torch.bfloat16,
                                       requires_grad=True) for _ in range(3))
                flops = 4 * batch * heads * seq * seq * head / 2  # causal: half the score matrix
                try:
                    with sdpa_kernel(backend):
                        fwd = lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
                        grad = torch.randn_like(fwd())
                        both = lambda: torch.autograd.grad(fwd(), (q, k, v), grad)
                        sf, sb = short(fwd), short(both)
                        hf, hb = held(fwd), held(both)
                    print(f"head {head:3d} {name:5s} seq {seq:5d}: short fwd {flops / sf / 1e12:5.0f} "
                          f"bwd {2.5 * flops / (sb - sf) / 1e12:5.0f} | held fwd {flops / hf / 1e12:5.0f} "
                          f"bwd {2.5 * flops / (hb - hf) / 1e12:5.0f} TFLOP/s")
                except Exception as e:  # a backend that does not support the GPU or shape
                    print(f"head {head:3d} {name:5s} seq {seq:5d}: not run: {str(e).splitlines()[0][:120]}")
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    gemm = 2 * 8192 ** 3
    print(f"torch.matmul bf16 8192^3: short {gemm / short(lambda: a @ b) / 1e12:.0f}, "
          f"held {gemm / held(lambda: a @ b, 5.0) / 1e12:.0f} TFLOP/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

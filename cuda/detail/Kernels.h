#pragma once
// Internal to planner_cuda: the few kernels the benchmarks need (Kernels.cu, compiled by nvcc).
// Each enqueues on `stream` and returns the launch error (cudaSuccess when enqueued).
#include <cuda_runtime_api.h>

#include <cstddef>

namespace lp::calib::detail {

// Pseudo-random values in [-1, 1): bf16 elements, or fp8 (e4m3) elements. Random data rather than zeros,
// because tensor cores draw less power (and clock higher) on zeros, which would flatter the GEMM figures.
cudaError_t launchFillBf16(void* data, std::size_t count, unsigned seed, cudaStream_t stream);
cudaError_t launchFillFp8E4m3(void* data, std::size_t count, unsigned seed, cudaStream_t stream);

// out[i] = in[i] * 1.0001 over `bytes` (a multiple of 16) in 16-byte vectors: reads and writes `bytes`
// each. `smCount` sizes the grid (resident blocks on every SM).
cudaError_t launchReadWrite(const void* in, void* out, std::size_t bytes, int smCount, cudaStream_t stream);

} // namespace lp::calib::detail

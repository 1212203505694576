// GEMM throughput with cuBLASLt, bf16 and fp8 (e4m3) operands.
#include "cuda/detail/GemmBench.h"

#include "cuda/detail/DynamicLibs.h"
#include "cuda/detail/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace lp::calib::detail {
namespace {

constexpr std::size_t kWorkspaceBytes = 32u << 20; // what cuBLAS recommends for Hopper
constexpr double kMemoryHeadroomBytes = 256.0 * 1024 * 1024;
constexpr int kCandidateAlgorithms = 8; // heuristic candidates timed per shape

// Destroys a cuBLASLt object when leaving the scope.
template <typename T, typename Destroy> class LtObject {
public:
    explicit LtObject(Destroy destroy) : m_destroy(destroy) {}
    LtObject(const LtObject&) = delete;
    LtObject& operator=(const LtObject&) = delete;
    ~LtObject() {
        if (m_obj)
            (void)m_destroy(m_obj);
    }
    T* out() { return &m_obj; }
    T get() const { return m_obj; }

private:
    T m_obj{};
    Destroy m_destroy;
};

} // namespace

struct GemmBench::Impl {
    const CublasLtApi* api = nullptr;
    cublasLtHandle_t handle = nullptr;
    TimedStream* stream = nullptr;
    DeviceBuffer workspace;
    unsigned seed = 1;
    ~Impl() {
        if (handle)
            (void)api->destroy(handle);
    }
};

GemmBench::GemmBench(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
GemmBench::~GemmBench() = default;

std::expected<std::unique_ptr<GemmBench>, std::string> GemmBench::open(TimedStream& stream) {
    auto impl = std::make_unique<Impl>();
    std::string why;
    impl->api = cublasLt(&why);
    if (!impl->api)
        return std::unexpected(why);
    impl->stream = &stream;
    if (cudaError_t e = cudaSetDevice(stream.device()); e != cudaSuccess)
        return std::unexpected(callError("cudaSetDevice", e));
    if (cublasStatus_t s = impl->api->create(&impl->handle); s != CUBLAS_STATUS_SUCCESS) {
        impl->handle = nullptr;
        return std::unexpected("cublasLtCreate: " + impl->api->statusText(s));
    }
    if (auto r = impl->workspace.allocate(kWorkspaceBytes); !r)
        return std::unexpected("cuBLASLt workspace: " + r.error());
    return std::unique_ptr<GemmBench>(new GemmBench(std::move(impl)));
}

std::string GemmBench::libraryVersion() const {
    return "cuBLASLt " + m_impl->api->versionText();
}

using MatmulDesc = LtObject<cublasLtMatmulDesc_t, decltype(&::cublasLtMatmulDescDestroy)>;
using MatrixLayout = LtObject<cublasLtMatrixLayout_t, decltype(&::cublasLtMatrixLayoutDestroy)>;
using Preference = LtObject<cublasLtMatmulPreference_t, decltype(&::cublasLtMatmulPreferenceDestroy)>;

// One GEMM ready to launch: operands filled, descriptors made, the algorithm chosen.
struct PreparedGemm {
    explicit PreparedGemm(const CublasLtApi& lt)
        : op(lt.matmulDescDestroy), la(lt.matrixLayoutDestroy), lb(lt.matrixLayoutDestroy),
          ld(lt.matrixLayoutDestroy), pref(lt.preferenceDestroy) {}
    DeviceBuffer a, b, d;
    MatmulDesc op;
    MatrixLayout la, lb, ld;
    Preference pref;
    cublasLtMatmulHeuristicResult_t heuristic{};             // the algorithm launched
    std::vector<cublasLtMatmulHeuristicResult_t> candidates; // the heuristic's first few, best first
    int rank = 0;                                            // heuristic's place in candidates
};

std::expected<std::unique_ptr<PreparedGemm>, std::string> GemmBench::prepare(const GemmShape& shape,
                                                                             GemmDtype dtype) {
    const CublasLtApi& lt = *m_impl->api;
    const bool fp8 = dtype == GemmDtype::Fp8;
    constexpr auto kMaxDim = static_cast<long long>(std::numeric_limits<std::int32_t>::max());
    if (shape.m <= 0 || shape.n <= 0 || shape.k <= 0 || shape.m > kMaxDim || shape.n > kMaxDim ||
        shape.k > kMaxDim)
        return std::unexpected(std::string("dimensions must be between 1 and 2^31 - 1"));
    const auto m = static_cast<std::uint64_t>(shape.m);
    const auto n = static_cast<std::uint64_t>(shape.n);
    const auto k = static_cast<std::uint64_t>(shape.k);
    const std::size_t operandBytes = fp8 ? 1 : 2;
    const double bytesA = static_cast<double>(m * k * operandBytes);
    const double bytesB = static_cast<double>(k * n * operandBytes);
    const double bytesD = static_cast<double>(m * n * 2);
    if (cudaError_t e = cudaSetDevice(m_impl->stream->device()); e != cudaSuccess)
        return std::unexpected(callError("cudaSetDevice", e));
    const double freeBytes = freeDeviceBytes();
    if (freeBytes > 0 && bytesA + bytesB + bytesD > 0.95 * freeBytes - kMemoryHeadroomBytes)
        return std::unexpected("skipped: needs " + bytesText(bytesA + bytesB + bytesD) + " of GPU memory, " +
                               bytesText(freeBytes) + " free");
    auto g = std::make_unique<PreparedGemm>(lt);
    for (auto [buf, bytes] : {std::pair{&g->a, bytesA}, std::pair{&g->b, bytesB}, std::pair{&g->d, bytesD}})
        if (auto r = buf->allocate(static_cast<std::size_t>(bytes)); !r)
            return std::unexpected(r.error());
    cudaStream_t st = m_impl->stream->stream();
    const auto fill = fp8 ? launchFillFp8E4m3 : launchFillBf16;
    if (cudaError_t e = fill(g->a.get(), m * k, m_impl->seed++, st); e != cudaSuccess)
        return std::unexpected(callError("fill kernel", e));
    if (cudaError_t e = fill(g->b.get(), k * n, m_impl->seed++, st); e != cudaSuccess)
        return std::unexpected(callError("fill kernel", e));
    if (cudaError_t e = cudaMemsetAsync(g->d.get(), 0, g->d.size(), st); e != cudaSuccess)
        return std::unexpected(callError("cudaMemsetAsync", e));

    const auto fail = [&](const char* call, cublasStatus_t s) {
        return std::unexpected(std::string(call) + ": " + lt.statusText(s));
    };
    if (auto s = lt.matmulDescCreate(g->op.out(), CUBLAS_COMPUTE_32F, CUDA_R_32F); s != CUBLAS_STATUS_SUCCESS)
        return fail("cublasLtMatmulDescCreate", s);
    const std::int32_t transA = CUBLAS_OP_T;
    const std::int32_t transB = CUBLAS_OP_N;
    if (auto s = lt.matmulDescSetAttribute(g->op.get(), CUBLASLT_MATMUL_DESC_TRANSA, &transA, sizeof transA);
        s != CUBLAS_STATUS_SUCCESS)
        return fail("cublasLtMatmulDescSetAttribute(TRANSA)", s);
    if (auto s = lt.matmulDescSetAttribute(g->op.get(), CUBLASLT_MATMUL_DESC_TRANSB, &transB, sizeof transB);
        s != CUBLAS_STATUS_SUCCESS)
        return fail("cublasLtMatmulDescSetAttribute(TRANSB)", s);
    if (fp8) {
        // Transformer Engine's forward GEMMs accumulate fp8 products in the fast (reduced-precision) mode.
        const std::int8_t fastAccum = 1;
        if (auto s = lt.matmulDescSetAttribute(g->op.get(), CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fastAccum,
                                               sizeof fastAccum);
            s != CUBLAS_STATUS_SUCCESS)
            return fail("cublasLtMatmulDescSetAttribute(FAST_ACCUM)", s);
    }
    // Column-major: A is stored k x m (transposed by the op), B k x n, C and D m x n.
    const cudaDataType_t abType = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_16BF;
    if (auto s = lt.matrixLayoutCreate(g->la.out(), abType, k, m, static_cast<std::int64_t>(k));
        s != CUBLAS_STATUS_SUCCESS)
        return fail("cublasLtMatrixLayoutCreate(A)", s);
    if (auto s = lt.matrixLayoutCreate(g->lb.out(), abType, k, n, static_cast<std::int64_t>(k));
        s != CUBLAS_STATUS_SUCCESS)
        return fail("cublasLtMatrixLayoutCreate(B)", s);
    if (auto s = lt.matrixLayoutCreate(g->ld.out(), CUDA_R_16BF, m, n, static_cast<std::int64_t>(m));
        s != CUBLAS_STATUS_SUCCESS)
        return fail("cublasLtMatrixLayoutCreate(D)", s);
    if (auto s = lt.preferenceCreate(g->pref.out()); s != CUBLAS_STATUS_SUCCESS)
        return fail("cublasLtMatmulPreferenceCreate", s);
    const std::uint64_t workspaceBytes = m_impl->workspace.size();
    if (auto s = lt.preferenceSetAttribute(g->pref.get(), CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                           &workspaceBytes, sizeof workspaceBytes);
        s != CUBLAS_STATUS_SUCCESS)
        return fail("cublasLtMatmulPreferenceSetAttribute", s);
    int found = 0;
    g->candidates.resize(kCandidateAlgorithms);
    if (auto s = lt.algoGetHeuristic(m_impl->handle, g->op.get(), g->la.get(), g->lb.get(), g->ld.get(),
                                     g->ld.get(), g->pref.get(), kCandidateAlgorithms, g->candidates.data(),
                                     &found);
        s != CUBLAS_STATUS_SUCCESS || found == 0)
        return std::unexpected("cuBLASLt offers no algorithm for this shape in " +
                               std::string(toString(dtype)) +
                               (s != CUBLAS_STATUS_SUCCESS ? " (" + lt.statusText(s) + ")" : std::string()) +
                               (fp8 ? "; fp8 needs k, and m and n, multiples of 16" : ""));
    g->candidates.resize(static_cast<std::size_t>(found));
    g->heuristic = g->candidates.front();
    return g;
}

std::string GemmBench::chooseFastestAlgorithm(PreparedGemm& g, const TimingPlan& plan) {
    if (g.candidates.size() < 2)
        return {};
    TimingPlan brief = plan;
    brief.warmup = 1;
    brief.repetitions = 3;
    brief.maxSeconds = std::min(plan.maxSeconds, 0.2);
    TimedStream* streams[] = {m_impl->stream};
    double best = 0;
    for (std::size_t i = 0; i < g.candidates.size(); ++i) {
        g.heuristic = g.candidates[i];
        auto samples = timeRuns(streams, brief, launcher(g));
        if (!samples) {
            // An algorithm that fails to launch is skipped; a GPU in an error state is not.
            if (!deviceStillUsable(m_impl->stream->device(), nullptr))
                return samples.error();
            continue;
        }
        const double t = summarize(std::move(*samples)).median;
        if (t > 0 && (best == 0 || t < best)) {
            best = t;
            g.rank = static_cast<int>(i);
        }
    }
    if (best == 0)
        return "none of the " + std::to_string(g.candidates.size()) + " cuBLASLt algorithms ran";
    g.heuristic = g.candidates[static_cast<std::size_t>(g.rank)];
    return {};
}

Launch GemmBench::launcher(const PreparedGemm& g) const {
    return [this, &g]() -> std::string {
        static const float alpha = 1.0f;
        static const float beta = 0.0f;
        const CublasLtApi& lt = *m_impl->api;
        const cublasStatus_t s =
            lt.matmul(m_impl->handle, g.op.get(), &alpha, g.a.get(), g.la.get(), g.b.get(), g.lb.get(), &beta,
                      g.d.get(), g.ld.get(), g.d.get(), g.ld.get(), &g.heuristic.algo,
                      m_impl->workspace.get(), m_impl->workspace.size(), m_impl->stream->stream());
        return s == CUBLAS_STATUS_SUCCESS ? std::string() : "cublasLtMatmul: " + lt.statusText(s);
    };
}

GemmMeasurement GemmBench::run(const GemmShape& shape, GemmDtype dtype, const TimingPlan& plan) {
    GemmMeasurement out;
    out.shape = shape;
    out.dtype = dtype;
    auto g = prepare(shape, dtype);
    if (!g) {
        out.error = g.error();
        return out;
    }
    if (std::string err = chooseFastestAlgorithm(**g, plan); !err.empty()) {
        out.error = err;
        return out;
    }
    out.algorithmsTimed = static_cast<int>((*g)->candidates.size());
    out.algorithmRank = (*g)->rank;
    TimedStream* streams[] = {m_impl->stream};
    auto samples = timeRuns(streams, plan, launcher(**g));
    if (!samples) {
        out.error = samples.error();
        return out;
    }
    out.seconds = summarize(std::move(*samples));
    if (out.seconds.median > 0)
        out.flopsPerSecond = shape.flops() / out.seconds.median;
    return out;
}

SustainedGemm GemmBench::hold(const GemmMeasurement& burst, double seconds, const TimingPlan& plan,
                              const std::function<bool()>& keepGoing) {
    constexpr double kWindowSeconds = 0.25;
    SustainedGemm out;
    out.shape = burst.shape;
    out.dtype = burst.dtype;
    out.burstFlopsPerSecond = burst.flopsPerSecond;
    out.windowSeconds = kWindowSeconds;
    auto g = prepare(burst.shape, burst.dtype);
    if (!g) {
        out.error = g.error();
        return out;
    }
    if (std::string err = chooseFastestAlgorithm(**g, plan); !err.empty()) {
        out.error = err;
        return out;
    }
    TimedStream* streams[] = {m_impl->stream};
    auto windows = holdRuns(streams, plan, launcher(**g), seconds, kWindowSeconds, keepGoing);
    if (!windows) {
        out.error = windows.error();
        return out;
    }
    for (double t : *windows)
        if (t > 0)
            out.windowFlops.push_back(burst.shape.flops() / t);
    if (out.windowFlops.empty()) {
        out.error = "no window was timed";
        return out;
    }
    // The second half: the GPU has settled at its power limit (within a second on an H200).
    out.heldFlopsPerSecond =
        summarize({out.windowFlops.begin() + static_cast<std::ptrdiff_t>(out.windowFlops.size() / 2),
                   out.windowFlops.end()})
            .median;
    return out;
}

namespace {

// -1, 0 or 1 from the element's position: exact in bf16 and fp8, and sums of a few hundred stay exact.
int smallValue(std::size_t row, std::size_t col) {
    return static_cast<int>((row * 7 + col * 13 + row * col) % 3) - 1;
}

std::uint16_t bf16Bits(float v) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return static_cast<std::uint16_t>(bits >> 16); // exact for the small integers used here
}

float fromBf16(std::uint16_t b) {
    const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
    float v = 0;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

// e4m3: 1.0 is 0x38, -1.0 is 0xB8.
std::uint8_t fp8Bits(int v) {
    return v == 0 ? 0 : v > 0 ? 0x38 : 0xB8;
}

} // namespace

CorrectnessCheck GemmBench::verify(GemmDtype dtype) {
    const GemmShape shape{"check", 320, 192, 208};
    const auto m = static_cast<std::size_t>(shape.m);
    const auto n = static_cast<std::size_t>(shape.n);
    const auto k = static_cast<std::size_t>(shape.k);
    CorrectnessCheck check;
    check.what = std::string(toString(dtype)) + " GEMM 320x192x208 (A transposed) against a host reference";
    const auto fail = [&](std::string why) {
        check.detail = std::move(why);
        return check;
    };
    auto g = prepare(shape, dtype);
    if (!g)
        return fail(g.error());
    if (std::string err = waitForStream(*m_impl->stream, 60.0); !err.empty()) // the random fill first
        return fail(err);
    // A is stored k x m (column-major, op(A) = its transpose), B k x n: element (row, col) at row + col x k.
    const bool fp8 = dtype == GemmDtype::Fp8;
    std::vector<std::uint8_t> a(m * k * (fp8 ? 1 : 2)), b(k * n * (fp8 ? 1 : 2));
    const auto put = [&](std::vector<std::uint8_t>& buf, std::size_t at, int v) {
        if (fp8) {
            buf[at] = fp8Bits(v);
        } else {
            const std::uint16_t bits = bf16Bits(static_cast<float>(v));
            std::memcpy(&buf[2 * at], &bits, 2);
        }
    };
    for (std::size_t col = 0; col < m; ++col)
        for (std::size_t row = 0; row < k; ++row)
            put(a, row + col * k, smallValue(col, row));
    for (std::size_t col = 0; col < n; ++col)
        for (std::size_t row = 0; row < k; ++row)
            put(b, row + col * k, smallValue(row + 5, col + 3));
    if (cudaError_t e = cudaMemcpy((*g)->a.get(), a.data(), a.size(), cudaMemcpyHostToDevice);
        e != cudaSuccess)
        return fail(callError("cudaMemcpy", e));
    if (cudaError_t e = cudaMemcpy((*g)->b.get(), b.data(), b.size(), cudaMemcpyHostToDevice);
        e != cudaSuccess)
        return fail(callError("cudaMemcpy", e));
    if (std::string err = launcher(**g)(); !err.empty())
        return fail(err);
    if (std::string err = waitForStream(*m_impl->stream, 60.0); !err.empty())
        return fail(err);
    std::vector<std::uint16_t> d(m * n);
    if (cudaError_t e = cudaMemcpy(d.data(), (*g)->d.get(), d.size() * 2, cudaMemcpyDeviceToHost);
        e != cudaSuccess)
        return fail(callError("cudaMemcpy", e));
    for (std::size_t col = 0; col < n; ++col)
        for (std::size_t row = 0; row < m; ++row) {
            long long expected = 0;
            for (std::size_t i = 0; i < k; ++i)
                expected += smallValue(row, i) * smallValue(i + 5, col + 3);
            const float got = fromBf16(d[row + col * m]);
            if (std::abs(got - static_cast<float>(expected)) > 0.0f)
                return fail("element (" + std::to_string(row) + ", " + std::to_string(col) +
                            "): " + std::to_string(got) + " instead of " + std::to_string(expected));
        }
    check.passed = true;
    check.detail = "all " + std::to_string(m * n) + " elements exact";
    return check;
}

} // namespace lp::calib::detail

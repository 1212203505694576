// NCCL collectives and point-to-point over the local GPUs, one process driving them all.
#include "cuda/detail/NcclBench.h"

#include "cuda/detail/DynamicLibs.h"
#include "cuda/detail/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace lp::calib::detail {

#if defined(LP_HAVE_NCCL)

struct NcclBench::Impl {
    const NcclApi* api = nullptr;
    std::vector<ncclComm_t> comms;
    std::vector<TimedStream> streams;
    std::vector<DeviceBuffer> send, recv;
    double maxBytes = 0;
    bool broken = false; // an operation failed or hung: abort the communicators instead of destroying them
    ~Impl() {
        for (ncclComm_t c : comms)
            if (c)
                (void)(broken ? api->commAbort(c) : api->commDestroy(c));
    }
};

NcclBench::NcclBench(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
NcclBench::~NcclBench() = default;
int NcclBench::ranks() const {
    return static_cast<int>(m_impl->comms.size());
}
double NcclBench::maxBytes() const {
    return m_impl->maxBytes;
}
bool NcclBench::usable() const {
    return !m_impl->broken;
}
std::string NcclBench::libraryVersion() const {
    return "NCCL " + m_impl->api->versionText();
}

std::expected<std::unique_ptr<NcclBench>, std::string> NcclBench::open(const std::vector<int>& devices,
                                                                       double maxBytes) {
    const int gpus = static_cast<int>(devices.size());
    if (gpus < 2)
        return std::unexpected(std::string("the collectives need two or more GPUs"));
    auto impl = std::make_unique<Impl>();
    std::string why;
    impl->api = nccl(&why);
    if (!impl->api)
        return std::unexpected(why);
    impl->comms.assign(devices.size(), nullptr);
    if (ncclResult_t r = impl->api->commInitAll(impl->comms.data(), gpus, devices.data()); r != ncclSuccess) {
        std::fill(impl->comms.begin(), impl->comms.end(), nullptr);
        return std::unexpected(impl->api->errorText("ncclCommInitAll", r));
    }
    // Two buffers of the largest message on every GPU, halved until they fit in every GPU's free memory.
    double fits = maxBytes;
    for (int dev : devices) {
        if (cudaError_t e = cudaSetDevice(dev); e != cudaSuccess)
            return std::unexpected(callError("cudaSetDevice", e));
        const double freeBytes = freeDeviceBytes();
        while (freeBytes > 0 && fits > 1024.0 * 1024 && 2.0 * fits > 0.9 * freeBytes - 512.0 * 1024 * 1024)
            fits /= 2;
    }
    impl->maxBytes = std::floor(fits / 4096) * 4096;
    const auto size = static_cast<std::size_t>(impl->maxBytes);
    for (int dev : devices) {
        TimedStream s;
        if (auto r = s.create(dev); !r)
            return std::unexpected("GPU " + std::to_string(dev) + ": " + r.error());
        DeviceBuffer a, b;
        if (auto r = a.allocate(size); !r)
            return std::unexpected("GPU " + std::to_string(dev) + ": " + r.error());
        if (auto r = b.allocate(size); !r)
            return std::unexpected("GPU " + std::to_string(dev) + ": " + r.error());
        if (cudaError_t e = launchFillBf16(a.get(), size / 2, 11u + static_cast<unsigned>(dev), s.stream());
            e != cudaSuccess)
            return std::unexpected(callError("fill kernel", e));
        if (std::string err = waitForStream(s, 60.0); !err.empty())
            return std::unexpected(err);
        impl->streams.push_back(std::move(s));
        impl->send.push_back(std::move(a));
        impl->recv.push_back(std::move(b));
    }
    return std::unique_ptr<NcclBench>(new NcclBench(std::move(impl)));
}

namespace {

// One collective on every GPU, enqueued as one NCCL group from this thread.
std::string enqueueGroup(const NcclBench::Impl& s, Collective op, std::size_t total) {
    const NcclApi& api = *s.api;
    const std::size_t n = s.comms.size();
    const std::size_t perRank = total / n;
    if (ncclResult_t r = api.groupStart(); r != ncclSuccess)
        return api.errorText("ncclGroupStart", r);
    ncclResult_t first = ncclSuccess;
    const char* call = "";
    ncclComm_t failed = nullptr;
    for (std::size_t i = 0; i < n && first == ncclSuccess; ++i) {
        void* in = s.send[i].get();
        void* outBuf = s.recv[i].get();
        ncclComm_t c = s.comms[i];
        cudaStream_t st = s.streams[i].stream();
        ncclResult_t r = ncclSuccess;
        switch (op) {
        case Collective::AllReduce:
            call = "ncclAllReduce";
            r = api.allReduce(in, outBuf, total, ncclBfloat16, ncclSum, c, st);
            break;
        case Collective::AllGather:
            call = "ncclAllGather";
            r = api.allGather(in, outBuf, perRank, ncclBfloat16, c, st);
            break;
        case Collective::ReduceScatter:
            call = "ncclReduceScatter";
            r = api.reduceScatter(in, outBuf, perRank, ncclBfloat16, ncclSum, c, st);
            break;
        case Collective::SendRecv: {
            // A ring of simultaneous transfers: each GPU sends to the next and receives from the previous.
            call = "ncclSend/ncclRecv";
            const int next = static_cast<int>((i + 1) % n);
            const int prev = static_cast<int>((i + n - 1) % n);
            r = api.send(in, total, ncclBfloat16, next, c, st);
            if (r == ncclSuccess)
                r = api.recv(outBuf, total, ncclBfloat16, prev, c, st);
            break;
        }
        }
        if (r != ncclSuccess) {
            first = r;
            failed = c;
        }
    }
    const ncclResult_t end = api.groupEnd();
    if (first != ncclSuccess)
        return api.errorText(call, first, failed);
    if (end != ncclSuccess)
        return api.errorText("ncclGroupEnd", end);
    return {};
}

// Collectives per captured graph: enough that one graph launch per GPU is small beside them.
int collectivesPerGraph(double bytes) {
    return bytes <= 16.0 * 1024 * 1024 ? 16 : 2;
}

// `count` collectives captured into one CUDA graph per GPU (as nccl-tests' -G option does), or why not.
class CapturedCollectives {
public:
    CapturedCollectives() = default;
    CapturedCollectives(const CapturedCollectives&) = delete;
    CapturedCollectives& operator=(const CapturedCollectives&) = delete;
    ~CapturedCollectives() {
        for (cudaGraphExec_t e : m_execs)
            if (e)
                (void)cudaGraphExecDestroy(e);
    }

    std::string capture(const NcclBench::Impl& s, Collective op, std::size_t total, int count) {
        const std::size_t n = s.streams.size();
        std::size_t begun = 0;
        std::string err;
        for (; begun < n && err.empty(); ++begun)
            if (cudaError_t e =
                    cudaStreamBeginCapture(s.streams[begun].stream(), cudaStreamCaptureModeGlobal);
                e != cudaSuccess) {
                err = callError("cudaStreamBeginCapture", e);
                break;
            }
        for (int k = 0; k < count && err.empty(); ++k)
            err = enqueueGroup(s, op, total);
        m_execs.assign(n, nullptr);
        for (std::size_t i = 0; i < begun; ++i) {
            cudaGraph_t graph = nullptr;
            const cudaError_t e = cudaStreamEndCapture(s.streams[i].stream(), &graph);
            if (e != cudaSuccess && err.empty())
                err = callError("cudaStreamEndCapture", e);
            if (graph && err.empty())
                if (cudaError_t ie = cudaGraphInstantiate(&m_execs[i], graph, 0); ie != cudaSuccess)
                    err = callError("cudaGraphInstantiate", ie);
            if (graph)
                (void)cudaGraphDestroy(graph);
        }
        (void)cudaGetLastError();
        m_count = count;
        return err;
    }

    std::string launch(const NcclBench::Impl& s) const {
        for (std::size_t i = 0; i < m_execs.size(); ++i)
            if (cudaError_t e = cudaGraphLaunch(m_execs[i], s.streams[i].stream()); e != cudaSuccess)
                return callError("cudaGraphLaunch", e);
        return {};
    }
    int count() const { return m_count; }

private:
    std::vector<cudaGraphExec_t> m_execs;
    int m_count = 1;
};

} // namespace

CommMeasurement NcclBench::run(Collective op, double bytes, const TimingPlan& plan) {
    CommMeasurement out;
    out.op = op;
    Impl& s = *m_impl;
    const auto n = static_cast<std::size_t>(ranks());
    out.ranks = static_cast<int>(n);
    if (s.broken) {
        out.error = "skipped: an earlier NCCL operation failed";
        return out;
    }
    // bf16 elements; all-gather and reduce-scatter split the full buffer evenly over the ranks.
    const auto total = static_cast<std::size_t>(bytes / 2.0 / static_cast<double>(n)) * n;
    out.bytes = 2.0 * static_cast<double>(total);
    if (total == 0) {
        out.error = "message smaller than one element per GPU";
        return out;
    }
    if (out.bytes > s.maxBytes) {
        out.error = "skipped: " + bytesText(out.bytes) + " does not fit beside the buffers (" +
                    bytesText(s.maxBytes) + " per GPU)";
        return out;
    }
    CapturedCollectives graphs;
    Launch launch;
    int perLaunch = 1;
    if (std::string err = graphs.capture(s, op, total, collectivesPerGraph(bytes)); err.empty()) {
        perLaunch = graphs.count();
        out.method = "CUDA graph of " + std::to_string(perLaunch) + " per GPU";
        launch = [&]() { return graphs.launch(s); };
    } else {
        out.method = "one host thread enqueuing on every GPU (graph capture failed: " + err + ")";
        launch = [&]() { return enqueueGroup(s, op, total); };
    }
    std::vector<TimedStream*> streams;
    for (auto& st : s.streams)
        streams.push_back(&st);
    TimingPlan p = plan;
    p.hangSeconds = std::min(plan.hangSeconds, 60.0);
    auto samples = timeRuns(streams, p, launch);
    if (!samples) {
        s.broken = true;
        out.error = samples.error();
        return out;
    }
    for (double& t : *samples)
        t /= perLaunch;
    out.seconds = summarize(std::move(*samples));
    if (out.seconds.median > 0) {
        const double ranksD = static_cast<double>(n);
        out.algBytesPerSecond = out.bytes / out.seconds.median;
        const double factor = op == Collective::AllReduce  ? 2.0 * (ranksD - 1.0) / ranksD
                              : op == Collective::SendRecv ? 1.0
                                                           : (ranksD - 1.0) / ranksD;
        out.busBytesPerSecond = out.algBytesPerSecond * factor;
    }
    return out;
}

CorrectnessCheck NcclBench::verifyAllReduce() {
    Impl& s = *m_impl;
    const std::size_t n = s.comms.size();
    CorrectnessCheck check;
    check.what = "all-reduce (sum) of bf16 buffers holding rank + 1 on " + std::to_string(n) + " GPUs";
    const auto fail = [&](std::string why) {
        check.detail = std::move(why);
        return check;
    };
    constexpr std::size_t kElements = 1u << 20;
    const std::size_t count = std::min(kElements, static_cast<std::size_t>(s.maxBytes / 2));
    const auto bf16Bits = [](float v) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        return static_cast<std::uint16_t>(bits >> 16); // small integers are exact in bf16
    };
    for (std::size_t i = 0; i < n; ++i) {
        const std::vector<std::uint16_t> values(count, bf16Bits(static_cast<float>(i + 1)));
        if (cudaError_t e = cudaSetDevice(s.streams[i].device()); e != cudaSuccess)
            return fail(callError("cudaSetDevice", e));
        if (cudaError_t e = cudaMemcpy(s.send[i].get(), values.data(), count * 2, cudaMemcpyHostToDevice);
            e != cudaSuccess)
            return fail(callError("cudaMemcpy", e));
    }
    if (std::string err = enqueueGroup(s, Collective::AllReduce, count); !err.empty())
        return fail(err);
    const std::uint16_t expected = bf16Bits(static_cast<float>(n * (n + 1) / 2));
    std::vector<std::uint16_t> back(count);
    for (std::size_t i = 0; i < n; ++i) {
        if (std::string err = waitForStream(s.streams[i], 60.0); !err.empty()) {
            s.broken = true;
            return fail(err);
        }
        if (cudaError_t e = cudaMemcpy(back.data(), s.recv[i].get(), count * 2, cudaMemcpyDeviceToHost);
            e != cudaSuccess)
            return fail(callError("cudaMemcpy", e));
        for (std::size_t j = 0; j < count; ++j)
            if (back[j] != expected) {
                check.detail = "GPU " + std::to_string(s.streams[i].device()) + ", element " +
                               std::to_string(j) + ": bf16 bits " + std::to_string(back[j]) + " instead of " +
                               std::to_string(expected) + " (" + std::to_string(n * (n + 1) / 2) + ")";
                return check;
            }
    }
    check.passed = true;
    check.detail = "every element " + std::to_string(n * (n + 1) / 2) + " on every GPU";
    return check;
}

#else // !LP_HAVE_NCCL

struct NcclBench::Impl {};
NcclBench::NcclBench(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
NcclBench::~NcclBench() = default;
int NcclBench::ranks() const {
    return 0;
}
double NcclBench::maxBytes() const {
    return 0;
}
bool NcclBench::usable() const {
    return false;
}
std::string NcclBench::libraryVersion() const {
    return {};
}

std::expected<std::unique_ptr<NcclBench>, std::string> NcclBench::open(const std::vector<int>&, double) {
    return std::unexpected(std::string("this build has no NCCL support (nccl.h was not found when it was "
                                       "configured), so the collectives are not measured"));
}

CorrectnessCheck NcclBench::verifyAllReduce() {
    return {"all-reduce of rank-valued buffers", false, "this build has no NCCL support"};
}

CommMeasurement NcclBench::run(Collective op, double bytes, const TimingPlan&) {
    CommMeasurement out;
    out.op = op;
    out.bytes = bytes;
    out.error = "this build has no NCCL support";
    return out;
}

#endif

} // namespace lp::calib::detail

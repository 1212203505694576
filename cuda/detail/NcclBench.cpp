// NCCL collectives and point-to-point over the local GPUs, one process driving them all.
#include "cuda/detail/NcclBench.h"

#include "cuda/detail/DynamicLibs.h"
#include "cuda/detail/Kernels.h"

#include <algorithm>
#include <cmath>

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

std::expected<std::unique_ptr<NcclBench>, std::string> NcclBench::open(int gpus, double maxBytes) {
    if (gpus < 2)
        return std::unexpected(std::string("the collectives need two or more GPUs"));
    auto impl = std::make_unique<Impl>();
    std::string why;
    impl->api = nccl(&why);
    if (!impl->api)
        return std::unexpected(why);
    std::vector<int> devices(static_cast<std::size_t>(gpus));
    for (int i = 0; i < gpus; ++i)
        devices[static_cast<std::size_t>(i)] = i;
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
    const std::size_t perRank = total / n;
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
    const NcclApi& api = *s.api;
    const Launch launch = [&]() -> std::string {
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
                // A ring of simultaneous transfers: each GPU sends to the next and receives from the
                // previous.
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
    };
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

std::expected<std::unique_ptr<NcclBench>, std::string> NcclBench::open(int, double) {
    return std::unexpected(std::string("this build has no NCCL support (nccl.h was not found when it was "
                                       "configured), so the collectives are not measured"));
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

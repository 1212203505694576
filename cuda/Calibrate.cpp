// runCalibration: the GEMM, HBM and NCCL benchmarks in turn, with progress, cancel and error handling.
#include "cuda/Calibrate.h"

#include "cuda/Device.h"
#include "cuda/ProfileBuilder.h"
#include "cuda/detail/GemmBench.h"
#include "cuda/detail/HbmBench.h"
#include "cuda/detail/NcclBench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <new>

namespace lp::calib {
namespace {

std::string shapeItem(GemmDtype dtype, const GemmShape& g) {
    std::string label = g.label;
    const std::string dims = std::to_string(g.m) + "x" + std::to_string(g.n) + "x" + std::to_string(g.k);
    if (label.find(dims) == std::string::npos)
        label += " (" + dims + ")";
    return std::string(toString(dtype)) + " " + label;
}

// "15 s", "2.5 s".
std::string secondsText(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", s);
    return buf;
}

class Run {
public:
    Run(const CalibrationRequest& req, const ProgressCallback& progress) : m_req(req), m_progress(progress) {}

    CalibrationResult execute() {
        const auto start = std::chrono::steady_clock::now();
        run();
        m_result.elapsedSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return std::move(m_result);
    }

private:
    const CalibrationRequest& m_req;
    const ProgressCallback& m_progress;
    CalibrationResult m_result;
    detail::TimedStream m_stream;
    detail::TimingPlan m_plan;
    int m_done = 0;
    int m_total = 0;
    std::vector<int> m_ordinals; // CUDA device numbers of the usable GPUs, in order
    bool m_commMethodNoted = false;

    // False when the callback asked to cancel.
    bool report(const char* phase, const std::string& item) {
        if (!m_progress)
            return true;
        Progress p;
        p.done = m_done;
        p.total = m_total;
        p.phase = phase;
        p.item = item;
        p.partial = &m_result;
        if (m_progress(p))
            return true;
        m_result.cancelled = true;
        m_result.ok = false;
        return false;
    }

    // After a failed item: false (and the run's error set) when the GPU cannot go on.
    bool stillUsable() {
        std::string why;
        if (detail::deviceStillUsable(m_result.device.index, &why))
            return true;
        m_result.error = why;
        return false;
    }

    // Records a correctness check (a note when it failed); whether it passed.
    bool addCheck(CorrectnessCheck check) {
        if (!check.passed)
            m_result.notes.push_back("correctness check failed: " + check.what + ": " + check.detail);
        m_result.checks.push_back(std::move(check));
        return m_result.checks.back().passed;
    }

    // Says once how the collectives were driven (CommMeasurement::method).
    void noteCommMethod(const CommMeasurement& m) {
        if (m.method.empty() || m_commMethodNoted)
            return;
        m_commMethodNoted = true;
        m_result.notes.push_back(
            "NCCL collectives timed as " + m.method +
            (m.method.starts_with("CUDA graph")
                 ? " (captured once, so one host thread's enqueue time is left out, as a "
                   "job with one process per GPU sees it)"
                 : " (small messages include the host's enqueue time; a job with one "
                   "process per GPU runs them faster)"));
    }

    void addLibrary(const std::string& lib) {
        if (lib.empty())
            return;
        m_result.libraries += (m_result.libraries.empty() ? "" : ", ") + lib;
    }

    void run() {
        m_result.date = todayIso();
        std::string why;
        const std::vector<DeviceInfo> gpus = detectGpus(&why);
        if (gpus.empty()) {
            m_result.error = "no usable GPU: " + why;
            return;
        }
        const int count = static_cast<int>(gpus.size());
        // One numbering throughout: CUDA device numbers (DeviceInfo::index), which NCCL uses too; a GPU
        // that failed its query leaves a gap rather than shifting the others.
        const auto chosen = std::find_if(gpus.begin(), gpus.end(),
                                         [&](const DeviceInfo& d) { return d.index == m_req.device; });
        if (chosen == gpus.end()) {
            std::string usable;
            for (const auto& d : gpus)
                usable += (usable.empty() ? "" : ", ") + std::to_string(d.index);
            m_result.error = "GPU " + std::to_string(m_req.device) +
                             " does not exist or cannot be used (usable GPUs: " + usable + ")";
            return;
        }
        m_result.device = *chosen;
        for (const auto& d : gpus)
            m_ordinals.push_back(d.index);
        const DeviceInfo& dev = m_result.device;
        const bool fp8Supported = dev.ccMajor > 8 || (dev.ccMajor == 8 && dev.ccMinor >= 9);
        const bool fp8 = m_req.fp8 && fp8Supported;
        int commGpus = m_req.maxGpus > 0 ? std::min(m_req.maxGpus, count) : count;
        if (!m_req.nccl || m_req.commBytes.empty() || commGpus < 2)
            commGpus = 0;
        const int gemmTypes = fp8 ? 2 : 1;
        const auto gemmItems = (static_cast<int>(m_req.gemms.size()) +
                                (m_req.sustainSeconds > 0 && !m_req.gemms.empty() ? 1 : 0)) *
                               gemmTypes;
        const auto hbmItems = static_cast<int>(m_req.hbmBytes.size()) * 2;
        const auto commItems = commGpus > 0 ? static_cast<int>(m_req.commBytes.size()) * 4 : 0;
        m_total = gemmItems + hbmItems + commItems;

        if (auto r = m_stream.create(dev.index); !r) {
            m_result.error = "GPU " + std::to_string(dev.index) + " (" + dev.name + "): " + r.error();
            return;
        }
        m_plan.warmup = std::max(1, m_req.warmup);
        m_plan.repetitions = std::max(1, m_req.repetitions);
        m_plan.maxSeconds = m_req.maxSecondsPerItem > 0 ? m_req.maxSecondsPerItem : 2.0;

        if (m_req.fp8 && !fp8Supported)
            m_result.notes.push_back(
                "fp8 GEMMs: not measured, they need compute capability 8.9 or later (this GPU: " +
                dev.computeCapability() + ")");
        if (!runGemms(fp8, gemmItems) || !runHbm())
            return;
        if (commGpus > 0) {
            if (!runComm(commGpus, commItems))
                return;
        } else if (m_req.nccl) {
            m_result.notes.push_back(
                count < 2
                    ? "NCCL collectives: not measured, they need two or more GPUs (this machine has one)"
                    : "NCCL collectives: not measured (no message sizes, or limited to one GPU)");
        }
        m_done = m_total;
        if (!report("done", "finished"))
            return;
        m_result.ok = true;
    }

    bool runGemms(bool fp8, int items) {
        if (m_req.gemms.empty())
            return true;
        auto bench = detail::GemmBench::open(m_stream);
        if (!bench) {
            m_result.notes.push_back("GEMM benchmarks: not run: " + bench.error());
            m_done += items;
            return true;
        }
        addLibrary((*bench)->libraryVersion());
        std::vector<GemmDtype> dtypes{GemmDtype::Bf16};
        if (fp8)
            dtypes.push_back(GemmDtype::Fp8);
        if (m_req.verify)
            for (GemmDtype dtype : dtypes)
                if (!addCheck((*bench)->verify(dtype)) && !stillUsable())
                    return false;
        for (GemmDtype dtype : dtypes) {
            for (const GemmShape& shape : m_req.gemms) {
                if (!report("GEMM", shapeItem(dtype, shape)))
                    return false;
                m_result.gemms.push_back((*bench)->run(shape, dtype, m_plan));
                ++m_done;
                if (!m_result.gemms.back().ok() && !stillUsable())
                    return false;
            }
        }
        if (m_req.sustainSeconds > 0)
            for (GemmDtype dtype : dtypes)
                if (!holdFastest(**bench, dtype))
                    return false;
        return true;
    }

    // Runs the fastest GEMM of a type back to back for sustainSeconds (SustainedGemm).
    bool holdFastest(detail::GemmBench& bench, GemmDtype dtype) {
        const GemmMeasurement* fastest = nullptr;
        for (const auto& g : m_result.gemms)
            if (g.dtype == dtype && g.ok() && (!fastest || g.flopsPerSecond > fastest->flopsPerSecond))
                fastest = &g;
        const std::string held = " held for " + secondsText(m_req.sustainSeconds);
        if (!fastest) {
            ++m_done;
            m_result.notes.push_back(
                std::string(toString(dtype)) +
                " GEMMs: not held at the power limit (no GEMM of this type was measured)");
            return true;
        }
        const std::string item = shapeItem(dtype, fastest->shape) + held;
        if (!report("GEMM", item))
            return false;
        const GemmMeasurement burst = *fastest; // m_result.gemms is not touched while holding
        m_result.sustained.push_back(
            bench.hold(burst, m_req.sustainSeconds, m_plan, [&] { return report("GEMM", item); }));
        ++m_done;
        if (m_result.cancelled)
            return false;
        return m_result.sustained.back().ok() || stillUsable();
    }

    bool runHbm() {
        for (HbmMethod method : {HbmMethod::Memcpy, HbmMethod::Kernel}) {
            for (double bytes : m_req.hbmBytes) {
                if (!report("HBM", std::string(toString(method)) + " " + detail::bytesText(bytes)))
                    return false;
                m_result.hbm.push_back(detail::benchHbm(m_stream, m_result.device, method, bytes, m_plan));
                ++m_done;
                if (!m_result.hbm.back().ok() && !stillUsable())
                    return false;
            }
        }
        return true;
    }

    bool runComm(int gpus, int items) {
        const double largest = *std::max_element(m_req.commBytes.begin(), m_req.commBytes.end());
        if (!report("NCCL", "opening NCCL on " + std::to_string(gpus) + " GPUs"))
            return false;
        auto bench = detail::NcclBench::open(
            std::vector<int>(m_ordinals.begin(), m_ordinals.begin() + static_cast<std::ptrdiff_t>(gpus)),
            largest);
        if (!bench) {
            m_result.notes.push_back("NCCL collectives: not measured: " + bench.error());
            m_done += items;
            return stillUsable();
        }
        addLibrary((*bench)->libraryVersion());
        m_result.gpuCount = (*bench)->ranks();
        if (m_req.verify && !addCheck((*bench)->verifyAllReduce()) && !(*bench)->usable()) {
            m_result.notes.push_back("NCCL collectives: not measured, the correctness check failed");
            m_done += items;
            bench->reset();
            return stillUsable();
        }
        if ((*bench)->maxBytes() < largest)
            m_result.notes.push_back("NCCL: messages above " + detail::bytesText((*bench)->maxBytes()) +
                                     " skipped (GPU memory)");
        const int before = m_done;
        for (Collective op : {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter,
                              Collective::SendRecv}) {
            for (double bytes : m_req.commBytes) {
                if (!report("NCCL", std::string(toString(op)) + " " + detail::bytesText(bytes) + " on " +
                                        std::to_string(gpus) + " GPUs"))
                    return false;
                m_result.comm.push_back((*bench)->run(op, bytes, m_plan));
                ++m_done;
                noteCommMethod(m_result.comm.back());
                if (!(*bench)->usable()) {
                    m_result.notes.push_back("NCCL: stopped after an error: " + m_result.comm.back().error);
                    m_done = before + items;
                    bench->reset();
                    return stillUsable();
                }
            }
        }
        return true;
    }
};

} // namespace

CalibrationResult runCalibration(const CalibrationRequest& request, const ProgressCallback& progress) {
    try {
        return Run(request, progress).execute();
    } catch (const std::bad_alloc&) {
        CalibrationResult r;
        r.error = "out of host memory";
        return r;
    } catch (const std::exception& e) {
        CalibrationResult r;
        r.error = std::string("internal error: ") + e.what();
        return r;
    } catch (...) {
        CalibrationResult r;
        r.error = "internal error";
        return r;
    }
}

} // namespace lp::calib

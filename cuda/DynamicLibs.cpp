#include "cuda/DynamicLibs.h"

#include <dlfcn.h>
#include <vector>

#ifndef LP_CUDA_LIBRARY_DIR
#define LP_CUDA_LIBRARY_DIR ""
#endif

namespace lp::calib::detail {
namespace {

struct Opened {
    void* handle = nullptr;
    std::string file;
    std::string why;
};

// The first of `names` that dlopen accepts; otherwise each attempt's reason.
Opened openFirst(const std::vector<std::string>& names) {
    Opened out;
    for (const auto& name : names) {
        (void)dlerror();
        if (void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) {
            out.handle = h;
            out.file = name;
            return out;
        }
        const char* e = dlerror();
        out.why += "\n  " + (e ? std::string(e) : name + ": cannot be loaded");
    }
    return out;
}

// Candidate file names: the versioned name, the plain name, then both in the build's toolkit folder.
std::vector<std::string> candidates(const std::string& base, const std::string& version) {
    std::vector<std::string> names{base + "." + version, base};
    const std::string dir = LP_CUDA_LIBRARY_DIR;
    if (!dir.empty()) {
        names.push_back(dir + "/" + base + "." + version);
        names.push_back(dir + "/" + base);
    }
    return names;
}

class Binder {
public:
    explicit Binder(void* handle) : m_handle(handle) {}
    template <typename Fn> void bind(Fn& fn, const char* symbol, bool required = true) {
        (void)dlerror();
        void* p = dlsym(m_handle, symbol);
        if (!p) {
            if (required)
                m_missing += (m_missing.empty() ? "" : ", ") + std::string(symbol);
            return;
        }
        fn = reinterpret_cast<Fn>(p);
    }
    const std::string& missing() const { return m_missing; }

private:
    void* m_handle;
    std::string m_missing;
};

// Loads a library's API once (thread-safe): `load` fills the API and returns why it cannot, or nothing.
template <typename Api, typename Load> const Api* loadOnce(std::string* why, Load load) {
    struct State {
        Api api;
        std::string error;
    };
    static const State state = [&load] {
        State s;
        s.error = load(s.api);
        return s;
    }();
    if (!state.error.empty()) {
        if (why)
            *why = state.error;
        return nullptr;
    }
    return &state.api;
}

// major * 10000 + minor * 100 + patch (cuBLAS; NCCL from 2.9) as "major.minor.patch".
std::string dottedVersion(std::size_t v) {
    return std::to_string(v / 10000) + "." + std::to_string((v % 10000) / 100) + "." +
           std::to_string(v % 100);
}

} // namespace

std::string CublasLtApi::statusText(cublasStatus_t s) const {
    if (getStatusString)
        if (const char* text = getStatusString(s))
            return text;
    return "cuBLAS status " + std::to_string(static_cast<int>(s));
}

std::string CublasLtApi::versionText() const {
    if (!getVersion)
        return "?";
    return dottedVersion(getVersion());
}

const CublasLtApi* cublasLt(std::string* why) {
    return loadOnce<CublasLtApi>(why, [](CublasLtApi& a) -> std::string {
        const Opened lib = openFirst(candidates("libcublasLt.so", std::to_string(CUBLAS_VER_MAJOR)));
        if (!lib.handle)
            return "cuBLASLt could not be loaded (install the CUDA toolkit's cuBLAS libraries, or add their "
                   "folder to LD_LIBRARY_PATH):" +
                   lib.why;
        Binder b(lib.handle);
        b.bind(a.create, "cublasLtCreate");
        b.bind(a.destroy, "cublasLtDestroy");
        b.bind(a.getVersion, "cublasLtGetVersion");
        b.bind(a.getStatusString, "cublasLtGetStatusString", false);
        b.bind(a.matmulDescCreate, "cublasLtMatmulDescCreate");
        b.bind(a.matmulDescDestroy, "cublasLtMatmulDescDestroy");
        b.bind(a.matmulDescSetAttribute, "cublasLtMatmulDescSetAttribute");
        b.bind(a.matrixLayoutCreate, "cublasLtMatrixLayoutCreate");
        b.bind(a.matrixLayoutDestroy, "cublasLtMatrixLayoutDestroy");
        b.bind(a.preferenceCreate, "cublasLtMatmulPreferenceCreate");
        b.bind(a.preferenceDestroy, "cublasLtMatmulPreferenceDestroy");
        b.bind(a.preferenceSetAttribute, "cublasLtMatmulPreferenceSetAttribute");
        b.bind(a.algoGetHeuristic, "cublasLtMatmulAlgoGetHeuristic");
        b.bind(a.matmul, "cublasLtMatmul");
        if (!b.missing().empty())
            return lib.file + " lacks " + b.missing() + " (a cuBLAS older than this build's " +
                   std::to_string(CUBLAS_VER_MAJOR) + ".x?)";
        a.library = lib.file;
        return {};
    });
}

#if defined(LP_HAVE_NCCL)
std::string NcclApi::errorText(const char* call, ncclResult_t r, ncclComm_t comm) const {
    std::string out = std::string(call) + ": " + (getErrorString ? getErrorString(r) : "NCCL error") +
                      " (ncclResult " + std::to_string(static_cast<int>(r)) + ")";
    if (getLastError)
        if (const char* last = getLastError(comm); last && *last)
            out += ": " + std::string(last);
    return out + "; run with NCCL_DEBUG=WARN for details";
}

std::string NcclApi::versionText() const {
    int v = 0;
    if (!getVersion || getVersion(&v) != ncclSuccess)
        return "?";
    return dottedVersion(static_cast<std::size_t>(v));
}

const NcclApi* nccl(std::string* why) {
    return loadOnce<NcclApi>(why, [](NcclApi& a) -> std::string {
        const Opened lib = openFirst(candidates("libnccl.so", std::to_string(NCCL_MAJOR)));
        if (!lib.handle)
            return "NCCL could not be loaded, so the collectives are not measured (install NCCL, e.g. the "
                   "libnccl2 package, or add its folder to LD_LIBRARY_PATH):" +
                   lib.why;
        Binder b(lib.handle);
        b.bind(a.getVersion, "ncclGetVersion");
        b.bind(a.getErrorString, "ncclGetErrorString");
        b.bind(a.getLastError, "ncclGetLastError", false);
        b.bind(a.commInitAll, "ncclCommInitAll");
        b.bind(a.commDestroy, "ncclCommDestroy");
        b.bind(a.commAbort, "ncclCommAbort");
        b.bind(a.allReduce, "ncclAllReduce");
        b.bind(a.allGather, "ncclAllGather");
        b.bind(a.reduceScatter, "ncclReduceScatter");
        b.bind(a.send, "ncclSend");
        b.bind(a.recv, "ncclRecv");
        b.bind(a.groupStart, "ncclGroupStart");
        b.bind(a.groupEnd, "ncclGroupEnd");
        if (!b.missing().empty())
            return lib.file + " lacks " + b.missing() + " (NCCL 2.7 or later is needed)";
        a.library = lib.file;
        return {};
    });
}
#endif

} // namespace lp::calib::detail

#include "cuda/detail/DynamicLibs.h"

#include <dlfcn.h>
#include <initializer_list>
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

// One symbol a library must (or may) export, and the API's function pointer it fills.
struct Symbol {
    template <typename Fn>
    Symbol(Fn& target, const char* symbolName, bool isRequired = true)
        : slot(&target), name(symbolName), required(isRequired),
          assign([](void* to, void* found) { *static_cast<Fn*>(to) = reinterpret_cast<Fn>(found); }) {}
    void* slot;
    const char* name;
    bool required;
    void (*assign)(void* to, void* found);
};

// What loading one library says: its file name and major version, why it is needed, when it is too old.
struct Library {
    std::string base;       // "libnccl.so"
    std::string version;    // the major version this build was compiled against
    std::string cannotLoad; // followed by each attempt's reason
    std::string tooOld;     // after "<file> lacks <symbols>"
};

// Opens `library`, fills each symbol's slot, sets `loaded` to the file; returns why it cannot, or nothing.
std::string loadLibrary(const Library& library, std::initializer_list<Symbol> symbols, std::string& loaded) {
    const Opened lib = openFirst(candidates(library.base, library.version));
    if (!lib.handle)
        return library.cannotLoad + lib.why;
    std::string missing;
    for (const Symbol& symbol : symbols) {
        (void)dlerror();
        if (void* found = dlsym(lib.handle, symbol.name))
            symbol.assign(symbol.slot, found);
        else if (symbol.required)
            missing += (missing.empty() ? "" : ", ") + std::string(symbol.name);
    }
    if (!missing.empty())
        return lib.file + " lacks " + missing + library.tooOld;
    loaded = lib.file;
    return {};
}

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
    return loadOnce<CublasLtApi>(why, [](CublasLtApi& a) {
        const std::string major = std::to_string(CUBLAS_VER_MAJOR);
        return loadLibrary({.base = "libcublasLt.so",
                            .version = major,
                            .cannotLoad = "cuBLASLt could not be loaded (install the CUDA toolkit's cuBLAS "
                                          "libraries, or add their folder to LD_LIBRARY_PATH):",
                            .tooOld = " (a cuBLAS older than this build's " + major + ".x?)"},
                           {{a.create, "cublasLtCreate"},
                            {a.destroy, "cublasLtDestroy"},
                            {a.getVersion, "cublasLtGetVersion"},
                            {a.getStatusString, "cublasLtGetStatusString", false},
                            {a.matmulDescCreate, "cublasLtMatmulDescCreate"},
                            {a.matmulDescDestroy, "cublasLtMatmulDescDestroy"},
                            {a.matmulDescSetAttribute, "cublasLtMatmulDescSetAttribute"},
                            {a.matrixLayoutCreate, "cublasLtMatrixLayoutCreate"},
                            {a.matrixLayoutDestroy, "cublasLtMatrixLayoutDestroy"},
                            {a.preferenceCreate, "cublasLtMatmulPreferenceCreate"},
                            {a.preferenceDestroy, "cublasLtMatmulPreferenceDestroy"},
                            {a.preferenceSetAttribute, "cublasLtMatmulPreferenceSetAttribute"},
                            {a.algoGetHeuristic, "cublasLtMatmulAlgoGetHeuristic"},
                            {a.matmul, "cublasLtMatmul"}},
                           a.library);
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
    return loadOnce<NcclApi>(why, [](NcclApi& a) {
        return loadLibrary({.base = "libnccl.so",
                            .version = std::to_string(NCCL_MAJOR),
                            .cannotLoad =
                                "NCCL could not be loaded, so the collectives are not measured (install "
                                "NCCL, e.g. the libnccl2 package, or add its folder to LD_LIBRARY_PATH):",
                            .tooOld = " (NCCL 2.7 or later is needed)"},
                           {{a.getVersion, "ncclGetVersion"},
                            {a.getErrorString, "ncclGetErrorString"},
                            {a.getLastError, "ncclGetLastError", false},
                            {a.commInitAll, "ncclCommInitAll"},
                            {a.commDestroy, "ncclCommDestroy"},
                            {a.commAbort, "ncclCommAbort"},
                            {a.allReduce, "ncclAllReduce"},
                            {a.allGather, "ncclAllGather"},
                            {a.reduceScatter, "ncclReduceScatter"},
                            {a.send, "ncclSend"},
                            {a.recv, "ncclRecv"},
                            {a.groupStart, "ncclGroupStart"},
                            {a.groupEnd, "ncclGroupEnd"}},
                           a.library);
    });
}
#endif

} // namespace lp::calib::detail

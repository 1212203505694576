#pragma once
// Internal to planner_cuda: cuBLASLt and NCCL, loaded at run time (dlopen) rather than linked, so that a
// CUDA build starts on machines without them (a desktop, a container without NCCL) and the calibration
// says what is missing instead of the program failing to load. The headers give the signatures.
#include <cublasLt.h>
#if defined(LP_HAVE_NCCL)
#include <nccl.h>
#endif

#include <string>

namespace lp::calib::detail {

struct CublasLtApi {
    decltype(&::cublasLtCreate) create = nullptr;
    decltype(&::cublasLtDestroy) destroy = nullptr;
    decltype(&::cublasLtGetVersion) getVersion = nullptr;
    decltype(&::cublasLtGetStatusString) getStatusString = nullptr; // optional
    decltype(&::cublasLtMatmulDescCreate) matmulDescCreate = nullptr;
    decltype(&::cublasLtMatmulDescDestroy) matmulDescDestroy = nullptr;
    decltype(&::cublasLtMatmulDescSetAttribute) matmulDescSetAttribute = nullptr;
    decltype(&::cublasLtMatrixLayoutCreate) matrixLayoutCreate = nullptr;
    decltype(&::cublasLtMatrixLayoutDestroy) matrixLayoutDestroy = nullptr;
    decltype(&::cublasLtMatmulPreferenceCreate) preferenceCreate = nullptr;
    decltype(&::cublasLtMatmulPreferenceDestroy) preferenceDestroy = nullptr;
    decltype(&::cublasLtMatmulPreferenceSetAttribute) preferenceSetAttribute = nullptr;
    decltype(&::cublasLtMatmulAlgoGetHeuristic) algoGetHeuristic = nullptr;
    decltype(&::cublasLtMatmul) matmul = nullptr;
    std::string library; // the file that was loaded

    // "CUBLAS_STATUS_NOT_SUPPORTED" (or the number when the library cannot name it).
    std::string statusText(cublasStatus_t s) const;
    std::string versionText() const; // "13.0.0"
};

// Loads cuBLASLt once (thread-safe); nullptr with *why set when it cannot be loaded.
const CublasLtApi* cublasLt(std::string* why);

#if defined(LP_HAVE_NCCL)
struct NcclApi {
    decltype(&::ncclGetVersion) getVersion = nullptr;
    decltype(&::ncclGetErrorString) getErrorString = nullptr;
    decltype(&::ncclGetLastError) getLastError = nullptr; // optional
    decltype(&::ncclCommInitAll) commInitAll = nullptr;
    decltype(&::ncclCommDestroy) commDestroy = nullptr;
    decltype(&::ncclCommAbort) commAbort = nullptr;
    decltype(&::ncclAllReduce) allReduce = nullptr;
    decltype(&::ncclAllGather) allGather = nullptr;
    decltype(&::ncclReduceScatter) reduceScatter = nullptr;
    decltype(&::ncclSend) send = nullptr;
    decltype(&::ncclRecv) recv = nullptr;
    decltype(&::ncclGroupStart) groupStart = nullptr;
    decltype(&::ncclGroupEnd) groupEnd = nullptr;
    std::string library;

    // "ncclAllReduce: unhandled cuda error (run with NCCL_DEBUG=INFO for details) - <last error>".
    std::string errorText(const char* call, ncclResult_t r, ncclComm_t comm = nullptr) const;
    std::string versionText() const; // "2.28.9"
};

// Loads NCCL once (thread-safe); nullptr with *why set when it cannot be loaded.
const NcclApi* nccl(std::string* why);
#endif

} // namespace lp::calib::detail

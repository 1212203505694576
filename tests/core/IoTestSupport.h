#pragma once
// Shared by the scenario and hardware-profile file tests: random scenarios and profiles, file helpers.
// Scenario and hardware-profile files: exact round trips, preset names, every malformed file in
// tests/data/malformed giving its path and reason, parse-error positions, atomic saves.
#include "TestHarness.h"
#include "core/io/Files.h"
#include "core/io/Presets.h"
#include "core/io/ProfileJson.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Hardware.h"
#include "core/model/Limits.h"
#include "core/model/Scenario.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace lp::core;
namespace fs = std::filesystem;

namespace iotest {

const std::string kDataDir = LP_TEST_DATA_DIR;

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

void writeAll(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

std::string allMessages(const InputErrors& errors) {
    std::string out;
    for (const auto& e : errors)
        out += "    " + e.message() +
               (e.line > 0 ? " [" + std::to_string(e.line) + ":" + std::to_string(e.column) + "]" : "") +
               "\n";
    return out;
}

// A fresh directory under the system's temporary folder, removed when the guard goes.
struct TempDir {
    std::string path;
    TempDir() {
        std::string templ = (fs::temp_directory_path() / "lp-scenario-io-XXXXXX").string();
        path = ::mkdtemp(templ.data()) ? templ : std::string();
    }
    ~TempDir() {
        std::error_code ec;
        fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path, ec);
    }
    std::string file(const std::string& name) const { return path + "/" + name; }
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(path))
            names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
};

// ---------------------------------------------------------------------------------------------
// Random scenarios inside the documented ranges

struct Random {
    std::mt19937_64 rng;
    explicit Random(std::uint64_t seed) : rng(seed) {}
    int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
    bool coin() { return integer(0, 1) == 1; }
    // Any double in [lo, hi]: uniform in log space so that every exponent appears, full random mantissa.
    double logUniform(double lo, double hi) {
        const double e = std::uniform_real_distribution<double>(std::log(lo), std::log(hi))(rng);
        const double v = std::exp(e);
        return std::clamp(v, lo, hi);
    }
    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
    // A double with random bits, positive and at most hi (rejection sampling).
    double anyBits(double hi) { return anyBits(0.0, hi); }
    // The same in [lo, hi] (lo > 0), or (0, hi] for lo 0.
    double anyBits(double lo, double hi) {
        for (;;) {
            const std::uint64_t bits = rng() & 0x7fffffffffffffffULL;
            double d;
            std::memcpy(&d, &bits, sizeof d);
            if (std::isfinite(d) && d > 0 && d >= lo && d <= hi)
                return d;
        }
    }
    std::string text() {
        static const std::vector<std::string> pieces = {
            "Llama", " ", "70B",      "\"quoted\"", "back\\slash", "tab\there", "new\nline", "Über",
            "模型",  "😀", "\x01\x1f", "/",          "{}",          "[]",        "",          "$.model.heads",
            "é"};
        std::string s;
        const int n = integer(0, 6);
        for (int i = 0; i < n; ++i)
            s += pieces[static_cast<std::size_t>(integer(0, static_cast<int>(pieces.size()) - 1))];
        return s;
    }
};

Scenario randomScenario(Random& r) {
    Scenario s;
    const std::string name = r.text(); // the user's, set once the model and cluster are (setScenarioName)
    s.notes = r.text();
    ModelSpec& m = s.model;
    m.name = r.text();
    m.layers = r.integer(1, 100000);
    m.hidden = r.integer(1, 1000000);
    m.heads = r.integer(1, std::min(m.hidden, 100000));
    m.kvHeads = r.integer(1, m.heads);
    m.ffnHidden = r.integer(1, 10000000);
    m.vocab = r.integer(1, 10000000);
    m.seqLen = r.integer(1, 10000000);
    m.mlp = r.coin() ? MlpKind::Gelu : MlpKind::SwiGlu;
    m.norm = r.coin() ? NormKind::LayerNorm : NormKind::RmsNorm;
    m.tiedEmbeddings = r.coin();
    m.biases = r.coin();
    m.learnedPositions = r.coin();
    m.dropout = r.coin();
    m.headSize = r.coin() ? 0 : r.integer(1, 1000000);
    m.attention = r.coin() ? AttentionKind::Standard : AttentionKind::Mla;
    m.mla.qLoraRank = r.integer(0, 1000000);
    m.mla.kvLoraRank = r.integer(1, 1000000);
    m.mla.qkNopeHeadDim = r.integer(1, 1000000);
    m.mla.qkRopeHeadDim = r.integer(0, 1000000);
    m.mla.vHeadDim = r.integer(1, 1000000);
    if (r.coin()) {
        m.moe.experts = r.integer(1, 512);
        m.moe.topK = r.integer(1, m.moe.experts);
        m.moe.expertFfnHidden = r.integer(1, 100000);
        m.moe.sharedExperts = r.integer(0, 4);
        m.moe.moeLayers = r.integer(0, m.layers);
        m.moe.capacityFactor = r.logUniform(0.01, 1000);
        if (r.coin()) { // group-limited routing: groups divide the experts, the allowed ones hold the top-k
            m.moe.groups = std::array{1, 2, 4, 8}[static_cast<std::size_t>(r.integer(0, 3))];
            while (m.moe.experts % m.moe.groups != 0)
                m.moe.groups /= 2;
            const int perGroup = m.moe.experts / m.moe.groups;
            m.moe.groupLimit = r.integer((m.moe.topK + perGroup - 1) / perGroup, m.moe.groups);
        }
    }
    ClusterSpec& c = s.cluster;
    if (std::string cluster = r.text(); !cluster.empty())
        c.name = std::move(cluster);
    c.nodes = r.integer(1, 1000000);
    c.gpusPerNode = r.integer(1, 72);
    c.nvlinkDomain = r.integer(1, 1000000);
    c.nvlinkLatencySeconds = r.coin() ? 0.0 : r.logUniform(1e-12, 1.0);
    c.networkLatencySeconds = r.logUniform(1e-300, 1.0);
    GpuSpec& g = c.gpu;
    g.id = r.text();
    g.name = r.text();
    g.source = r.text();
    g.peakFlops16 = r.anyBits(limits::kMinFlops, 1e18);
    g.peakFlops8 = r.coin() ? 0.0 : r.anyBits(limits::kMinFlops, 1e18);
    g.hbmBytes = r.anyBits(limits::kMinMemoryBytes, 1e18);
    g.hbmBandwidth = r.logUniform(limits::kMinBandwidth, 1e18);
    g.nvlinkBandwidth = r.logUniform(1e6, 1e18);
    g.networkBandwidth = r.anyBits(limits::kMinBandwidth, 1e18);
    g.hostLinkBandwidth = r.logUniform(1e6, 1e18);
    g.hostMemoryBandwidth = r.logUniform(1e6, 1e18);
    g.hostMemoryBytes = r.logUniform(1e6, 1e18);
    if (r.coin()) { // stated cards replace the GPU's network figure with their share
        NetworkSpec n;
        n.fabric = static_cast<Fabric>(r.integer(0, 5));
        n.cardsPerNode = r.integer(1, 10000);
        n.cardGbps = r.logUniform(1, 1e6);
        n.railOptimized = r.coin();
        c.network = n;
        refreshNetworkShare(c);
    }
    TrainingOptions& t = s.training;
    t.precision = std::array{Precision::Bf16, Precision::Fp16,
                             Precision::Fp8}[static_cast<std::size_t>(r.integer(0, 2))];
    t.optimizer = r.coin() ? Optimizer::Adam : Optimizer::SgdMomentum;
    t.zeroStage = r.integer(0, 3);
    t.zeroShardDegree = r.coin() ? 0 : r.integer(1, 1000000);
    t.recomputeLayers = r.coin() ? 0 : r.integer(1, 100);
    t.recompute = std::array{Recompute::None, Recompute::Selective,
                             Recompute::Full}[static_cast<std::size_t>(r.integer(0, 2))];
    t.recomputeModules = static_cast<unsigned>(r.integer(0, static_cast<int>(kRecomputeModulesAll)));
    t.rematPolicy = static_cast<RematPolicy>(r.integer(0, static_cast<int>(RematPolicy::SaveOutProj)));
    t.sequenceParallel = r.coin();
    t.flashAttention = r.coin();
    t.torchCompile = r.coin();
    t.fusedKernels = r.coin();
    t.fp8ParamGather = r.coin();
    t.loaderPrefetch = r.coin();
    t.optimizerOffload = r.coin();
    t.activationOffloadLayers = r.coin() ? 0 : r.integer(0, s.model.layers);
    t.overlapTpComm = r.coin() ? Toggle::On : r.coin() ? Toggle::Off : Toggle::Auto;
    t.overlapPpComm = r.coin();
    t.overlapDpComm = r.coin() ? Toggle::On : r.coin() ? Toggle::Off : Toggle::Auto;
    t.overlapEpComm = r.coin();
    t.loaderTokensPerSecond = r.anyBits(limits::kMinTokensPerSecond, 1e18);
    t.stragglerSlowdown = r.coin() ? 0.0 : r.uniform(0, 10);
    t.allocatorReserveFraction = r.uniform(0, 0.999);
    t.moeLoadImbalance = r.logUniform(1, 1000);
    t.executionStyle = std::array{ExecutionStyle::Auto, ExecutionStyle::Megatron,
                                  ExecutionStyle::Fsdp}[static_cast<std::size_t>(r.integer(0, 2))];
    t.gradPrecision = std::array{GradPrecision::Auto, GradPrecision::Fp32,
                                 GradPrecision::Half}[static_cast<std::size_t>(r.integer(0, 2))];
    t.crossEntropy = std::array{CrossEntropy::Auto,        CrossEntropy::Unfused,  CrossEntropy::Fused,
                                CrossEntropy::FusedLinear, CrossEntropy::Compiled, CrossEntropy::Fused16}
        [static_cast<std::size_t>(r.integer(0, 5))];
    t.logitsMetricPasses = r.coin() ? 0 : r.integer(1, 16);
    t.optimizerPrecision = std::array{OptimizerPrecision::Fp32, OptimizerPrecision::Bf16Moments,
                                      OptimizerPrecision::Bf16}[static_cast<std::size_t>(r.integer(0, 2))];
    t.cpExchange = std::array{CpExchange::Auto, CpExchange::Ring,
                              CpExchange::AllGather}[static_cast<std::size_t>(r.integer(0, 2))];
    t.pipelineSplit = std::array{PipelineSplit::Auto, PipelineSplit::Layers,
                                 PipelineSplit::EmbeddingAndLoss}[static_cast<std::size_t>(r.integer(0, 2))];
    t.attentionFlops = r.coin() ? AttentionFlops::Full : AttentionFlops::Causal;
    t.attentionKernel = static_cast<AttentionKernel>(r.integer(0, 4));
    t.moeDispatcher = r.coin() ? MoeDispatcher::AllToAll : MoeDispatcher::Deduplicated;
    t.pipelineSchedule = static_cast<PipelineSchedule>(r.integer(0, 2));
    t.zero3Gather = static_cast<Zero3Gather>(r.integer(0, 1));
    t.tokenBudget = r.logUniform(1, 1e18);
    Layout& l = s.layout;
    l.tp = r.integer(1, 1000000);
    l.pp = r.integer(1, 1000000);
    l.dp = r.integer(1, 1000000);
    l.cp = r.integer(1, 64);
    l.ep = r.integer(1, 64);
    l.etp = r.integer(0, 8);
    l.vpp = r.integer(1, 16);
    l.microBatch = r.integer(1, 1000000);
    l.accumulation = r.integer(1, 1000000);
    RunOptions& run = s.run;
    run.tokenRule = TokenRule::TokensPerParameter;
    run.tokensPerParameter = r.logUniform(1e-3, 1e9);
    run.lossFit = r.integer(0, 1) ? LossFit::Besiroglu2024 : LossFit::Hoffmann2022;
    run.pricePerGpuHourUsd = r.logUniform(1e-3, 1e6);
    run.gpuFailuresPerHour = r.logUniform(1e-9, 1);
    run.checkpointBandwidth = r.logUniform(1, 1e18);
    run.restartSeconds = r.logUniform(1e-3, 1e6);
    run.asyncCheckpoint = r.coin();
    setScenarioName(s, name);
    return s;
}

Curve randomCurve(Random& r, int points) {
    Curve c;
    double x = r.logUniform(1e-3, 1e3);
    for (int i = 0; i < points; ++i) {
        c.points.emplace_back(x, r.uniform(1e-9, 1.5));
        x = std::nextafter(x, 1e300) * r.logUniform(1.0, 100.0);
    }
    return c;
}

HardwareProfile randomProfile(Random& r) {
    HardwareProfile p;
    p.name = r.text();
    p.gpuId = r.text();
    p.origin = r.coin() ? "built-in" : "measured";
    p.measuredOn = r.text();
    p.date = "2025-01-31";
    p.gemmEfficiency = randomCurve(r, r.integer(1, 20));
    p.gemmEfficiencyFp8 = randomCurve(r, r.integer(0, 20));
    p.kernels.hbmEfficiency = r.uniform(1e-6, 1.5);
    p.kernels.attentionFwdEfficiency = r.uniform(1e-6, 1.5);
    p.kernels.attentionBwdEfficiency = r.uniform(1e-6, 1.5);
    p.kernels.fa2AttentionFwdEfficiency = r.coin() ? 0.0 : r.uniform(1e-6, 1.5); // optional: 0 is not written
    p.kernels.fa2AttentionBwdEfficiency = r.coin() ? 0.0 : r.uniform(1e-6, 1.5);
    p.kernels.attentionFwdHalfTokens = r.coin() ? 0.0 : r.uniform(1.0, 1e6);
    p.kernels.attentionBwdHalfTokens = r.coin() ? 0.0 : r.uniform(1.0, 1e6);
    p.kernels.attentionScoreOverhead = r.coin() ? 0.0 : r.uniform(1e-6, 10.0);
    p.kernels.fa2AttentionScoreOverhead = r.coin() ? 0.0 : r.uniform(1e-6, 10.0);
    p.kernels.fa3AttentionFwdEfficiency = r.coin() ? 0.0 : r.uniform(1e-6, 1.5);
    p.kernels.fa3AttentionBwdEfficiency = r.coin() ? 0.0 : r.uniform(1e-6, 1.5);
    p.kernels.fa3AttentionFwdHalfTokens = r.coin() ? 0.0 : r.uniform(1.0, 1e6);
    p.kernels.fa3AttentionBwdHalfTokens = r.coin() ? 0.0 : r.uniform(1.0, 1e6);
    p.kernels.fa3AttentionScoreOverhead = r.coin() ? 0.0 : r.uniform(1e-6, 10.0);
    p.nvlinkBusEfficiency = randomCurve(r, r.integer(1, 20));
    p.networkBusEfficiency = randomCurve(r, r.integer(1, 20));
    p.nvlinkLatencySeconds = r.coin() ? 0.0 : r.logUniform(1e-9, 1);
    p.networkLatencySeconds = r.logUniform(1e-9, 1);
    return p;
}

const std::string kHeader = R"("schema": "layout-planner/scenario", "version": 1)";
std::string scenarioText(const std::string& body) {
    return "{" + kHeader + (body.empty() ? "" : ", " + body) + "}";
}

bool hasError(const InputErrors& errors, const std::string& path, const std::string& words) {
    return std::any_of(errors.begin(), errors.end(), [&](const InputError& e) {
        return e.path == path && e.message().find(words) != std::string::npos;
    });
}

} // namespace iotest
using namespace iotest;

// ---------------------------------------------------------------------------------------------
// Round trips

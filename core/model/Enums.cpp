#include "core/model/Enums.h"

#include "core/util/Text.h"

#include <algorithm>
#include <array>
#include <utility>

namespace lp::core {
namespace {

template <typename E, std::size_t N>
std::string_view nameOf(const std::array<std::pair<E, std::string_view>, N>& table, E v) {
    for (const auto& [e, s] : table)
        if (e == v)
            return s;
    return "unknown";
}

template <typename E, std::size_t N>
std::optional<E> parseOf(const std::array<std::pair<E, std::string_view>, N>& table, std::string_view s) {
    for (const auto& [e, name] : table)
        if (equalsIgnoreCase(name, s))
            return e;
    return std::nullopt;
}

constexpr std::array<std::pair<MlpKind, std::string_view>, 2> kMlp{
    {{MlpKind::Gelu, "gelu"}, {MlpKind::SwiGlu, "swiglu"}}};
constexpr std::array<std::pair<NormKind, std::string_view>, 2> kNorm{
    {{NormKind::LayerNorm, "layernorm"}, {NormKind::RmsNorm, "rmsnorm"}}};
constexpr std::array<std::pair<AttentionKind, std::string_view>, 2> kAttentionKind{
    {{AttentionKind::Standard, "standard"}, {AttentionKind::Mla, "mla"}}};
constexpr std::array<std::pair<Precision, std::string_view>, 3> kPrecision{
    {{Precision::Bf16, "bf16"}, {Precision::Fp16, "fp16"}, {Precision::Fp8, "fp8"}}};
constexpr std::array<std::pair<Optimizer, std::string_view>, 2> kOptimizer{
    {{Optimizer::Adam, "adam"}, {Optimizer::SgdMomentum, "sgd"}}};
constexpr std::array<std::pair<Recompute, std::string_view>, 3> kRecompute{
    {{Recompute::None, "none"}, {Recompute::Selective, "selective"}, {Recompute::Full, "full"}}};
constexpr std::array<std::pair<ExecutionStyle, std::string_view>, 3> kStyle{
    {{ExecutionStyle::Auto, "auto"}, {ExecutionStyle::Megatron, "megatron"}, {ExecutionStyle::Fsdp, "fsdp"}}};
constexpr std::array<std::pair<GradPrecision, std::string_view>, 3> kGrad{
    {{GradPrecision::Auto, "auto"}, {GradPrecision::Fp32, "fp32"}, {GradPrecision::Half, "half"}}};
constexpr std::array<std::pair<CrossEntropy, std::string_view>, 6> kCrossEntropy{
    {{CrossEntropy::Auto, "auto"},
     {CrossEntropy::Unfused, "unfused"},
     {CrossEntropy::Fused, "fused"},
     {CrossEntropy::FusedLinear, "fused_linear"},
     {CrossEntropy::Compiled, "compiled"},
     {CrossEntropy::Fused16, "fused_16bit"}}};
constexpr std::array<std::pair<OptimizerPrecision, std::string_view>, 3> kOptimizerPrecision{
    {{OptimizerPrecision::Fp32, "fp32"},
     {OptimizerPrecision::Bf16Moments, "bf16_moments"},
     {OptimizerPrecision::Bf16, "bf16"}}};
constexpr std::array<std::pair<RematPolicy, std::string_view>, 8> kRematPolicy{
    {{RematPolicy::Auto, "auto"},
     {RematPolicy::MinimalWithContext, "minimal_with_context"},
     {RematPolicy::Minimal, "minimal"},
     {RematPolicy::SaveDotWithContextExceptMlp, "save_dot_with_context_except_mlp"},
     {RematPolicy::SaveDotExceptMlpwi, "save_dot_except_mlpwi"},
     {RematPolicy::SaveDotExceptMlp, "save_dot_except_mlp"},
     {RematPolicy::SaveQkvProj, "save_qkv_proj"},
     {RematPolicy::SaveOutProj, "save_out_proj"}}};
constexpr std::array<std::pair<CpExchange, std::string_view>, 3> kCpExchange{
    {{CpExchange::Auto, "auto"}, {CpExchange::Ring, "ring"}, {CpExchange::AllGather, "allgather"}}};
constexpr std::array<std::pair<PipelineSplit, std::string_view>, 3> kPipelineSplit{
    {{PipelineSplit::Auto, "auto"},
     {PipelineSplit::Layers, "layers"},
     {PipelineSplit::EmbeddingAndLoss, "embedding_and_loss"}}};
constexpr std::array<std::pair<MoeDispatcher, std::string_view>, 2> kMoeDispatcher{
    {{MoeDispatcher::AllToAll, "alltoall"}, {MoeDispatcher::Deduplicated, "deepep"}}};
constexpr std::array<std::pair<AttentionFlops, std::string_view>, 2> kAttn{
    {{AttentionFlops::Full, "full"}, {AttentionFlops::Causal, "causal"}}};
constexpr std::array<std::pair<AttentionKernel, std::string_view>, 5> kAttentionKernel{
    {{AttentionKernel::Auto, "auto"},
     {AttentionKernel::FlashAttention2, "flash_attention_2"},
     {AttentionKernel::FlashAttention3, "flash_attention_3"},
     {AttentionKernel::Cudnn, "cudnn"},
     {AttentionKernel::Unfused, "unfused"}}};
constexpr std::array<std::pair<PipelineSchedule, std::string_view>, 3> kPipelineSchedule{
    {{PipelineSchedule::OneFOneB, "1f1b"},
     {PipelineSchedule::GPipe, "gpipe"},
     {PipelineSchedule::ZeroBubbleH1, "zb_h1"}}};
constexpr std::array<std::pair<Zero3Gather, std::string_view>, 2> kZero3Gather{
    {{Zero3Gather::Layer, "layer"}, {Zero3Gather::Module, "module"}}};
constexpr std::array<std::pair<Toggle, std::string_view>, 3> kToggle{
    {{Toggle::Auto, "auto"}, {Toggle::Off, "off"}, {Toggle::On, "on"}}};
constexpr std::array<std::pair<Severity, std::string_view>, 3> kSeverity{
    {{Severity::Info, "info"}, {Severity::Warning, "warning"}, {Severity::Error, "error"}}};

} // namespace

// One line per enum, unformatted: the lists read as the tables they are.
// clang-format off
std::string_view toString(MlpKind v) { return nameOf(kMlp, v); }
std::string_view toString(NormKind v) { return nameOf(kNorm, v); }
std::string_view toString(Precision v) { return nameOf(kPrecision, v); }
std::string_view toString(AttentionKind v) { return nameOf(kAttentionKind, v); }
std::string_view toString(Optimizer v) { return nameOf(kOptimizer, v); }
std::string_view toString(Recompute v) { return nameOf(kRecompute, v); }
std::string_view toString(ExecutionStyle v) { return nameOf(kStyle, v); }
std::string_view toString(GradPrecision v) { return nameOf(kGrad, v); }
std::string_view toString(CrossEntropy v) { return nameOf(kCrossEntropy, v); }
std::string_view toString(OptimizerPrecision v) { return nameOf(kOptimizerPrecision, v); }
std::string_view toString(RematPolicy v) { return nameOf(kRematPolicy, v); }
std::string_view toString(CpExchange v) { return nameOf(kCpExchange, v); }
std::string_view toString(PipelineSplit v) { return nameOf(kPipelineSplit, v); }
std::string_view toString(AttentionFlops v) { return nameOf(kAttn, v); }
std::string_view toString(AttentionKernel v) { return nameOf(kAttentionKernel, v); }
std::string_view toString(PipelineSchedule v) { return nameOf(kPipelineSchedule, v); }
std::string_view toString(Zero3Gather v) { return nameOf(kZero3Gather, v); }
std::string_view toString(Toggle v) { return nameOf(kToggle, v); }
std::string_view toString(MoeDispatcher v) { return nameOf(kMoeDispatcher, v); }
std::string_view toString(Severity v) { return nameOf(kSeverity, v); }
// clang-format on

std::optional<MlpKind> parseMlpKind(std::string_view s) {
    if (equalsIgnoreCase(s, "geglu") || equalsIgnoreCase(s, "silu"))
        return MlpKind::SwiGlu; // gated MLPs share the 3-matrix bookkeeping
    if (equalsIgnoreCase(s, "relu2") || equalsIgnoreCase(s, "squared_relu") || equalsIgnoreCase(s, "relu"))
        return MlpKind::Gelu; // so do the 2-matrix ones (Nemotron-4's squared ReLU, OPT's ReLU)
    return parseOf(kMlp, s);
}
// clang-format off
std::optional<NormKind> parseNormKind(std::string_view s) { return parseOf(kNorm, s); }
std::optional<AttentionKind> parseAttentionKind(std::string_view s) { return parseOf(kAttentionKind, s); }
std::optional<Precision> parsePrecision(std::string_view s) { return parseOf(kPrecision, s); }
std::optional<Recompute> parseRecompute(std::string_view s) { return parseOf(kRecompute, s); }
std::optional<ExecutionStyle> parseExecutionStyle(std::string_view s) { return parseOf(kStyle, s); }
std::optional<GradPrecision> parseGradPrecision(std::string_view s) { return parseOf(kGrad, s); }
std::optional<CrossEntropy> parseCrossEntropy(std::string_view s) { return parseOf(kCrossEntropy, s); }
std::optional<OptimizerPrecision> parseOptimizerPrecision(std::string_view s) { return parseOf(kOptimizerPrecision, s); }
std::optional<PipelineSplit> parsePipelineSplit(std::string_view s) { return parseOf(kPipelineSplit, s); }
std::optional<AttentionFlops> parseAttentionFlops(std::string_view s) { return parseOf(kAttn, s); }
// clang-format on
std::optional<Optimizer> parseOptimizer(std::string_view s) {
    if (equalsIgnoreCase(s, "adamw"))
        return Optimizer::Adam;
    return parseOf(kOptimizer, s);
}
std::optional<RematPolicy> parseRematPolicy(std::string_view s) {
    if (equalsIgnoreCase(s, "minimal_flash")) // MaxText's earlier name, deprecated for minimal_with_context
        return RematPolicy::MinimalWithContext;
    return parseOf(kRematPolicy, s);
}

RematSaves rematSaves(RematPolicy p) {
    RematSaves r;
    switch (p) {
    case RematPolicy::Auto:
    case RematPolicy::MinimalWithContext:
        break;
    case RematPolicy::Minimal:
        r.context = false;
        break;
    case RematPolicy::SaveDotWithContextExceptMlp:
        r.mlpwi = false;
        break;
    case RematPolicy::SaveDotExceptMlpwi: // saves mlpwo too, which the backward never needs
    case RematPolicy::SaveDotExceptMlp:
        r.context = r.mlpwi = false;
        break;
    case RematPolicy::SaveQkvProj:
        r.context = r.outProj = r.mlpwi = false;
        break;
    case RematPolicy::SaveOutProj:
        r.qkv = r.context = r.mlpwi = false;
        break;
    }
    return r;
}

std::optional<CpExchange> parseCpExchange(std::string_view s) {
    // The frameworks' own names: torchtitan's rotate methods, Megatron's --cp-comm-type.
    if (equalsIgnoreCase(s, "alltoall") || equalsIgnoreCase(s, "p2p"))
        return CpExchange::Ring;
    if (equalsIgnoreCase(s, "all_gather"))
        return CpExchange::AllGather;
    return parseOf(kCpExchange, s);
}
std::optional<MoeDispatcher> parseMoeDispatcher(std::string_view s) {
    // The frameworks' own names: Megatron-Core's dispatcher types and flex backends.
    for (const char* name : {"all_to_all", "a2a"})
        if (equalsIgnoreCase(s, name))
            return MoeDispatcher::AllToAll;
    for (const char* name : {"deduplicated", "flex", "hybridep"})
        if (equalsIgnoreCase(s, name))
            return MoeDispatcher::Deduplicated;
    return parseOf(kMoeDispatcher, s);
}

std::optional<PipelineSchedule> parsePipelineSchedule(std::string_view s) {
    // torchtitan's and the papers' spellings (Interleaved1F1B is 1F1B with virtual stages).
    constexpr std::pair<std::string_view, PipelineSchedule> kAliases[] = {
        {"interleaved1f1b", PipelineSchedule::OneFOneB}, {"interleaved_1f1b", PipelineSchedule::OneFOneB},
        {"pipedream_flush", PipelineSchedule::OneFOneB}, {"zb-h1", PipelineSchedule::ZeroBubbleH1},
        {"zero_bubble", PipelineSchedule::ZeroBubbleH1}, {"zerobubble", PipelineSchedule::ZeroBubbleH1}};
    for (const auto& [name, value] : kAliases)
        if (equalsIgnoreCase(s, name))
            return value;
    return parseOf(kPipelineSchedule, s);
}

std::optional<Zero3Gather> parseZero3Gather(std::string_view s) {
    return parseOf(kZero3Gather, s);
}

std::optional<Toggle> parseToggle(std::string_view s) {
    if (equalsIgnoreCase(s, "true"))
        return Toggle::On;
    if (equalsIgnoreCase(s, "false"))
        return Toggle::Off;
    return parseOf(kToggle, s);
}

std::optional<AttentionKernel> parseAttentionKernel(std::string_view s) {
    // The names people write: the packages, hyphenated spellings, Transformer Engine and SDPA's backends.
    constexpr std::pair<std::string_view, AttentionKernel> kAliases[] = {
        {"flash-attention-2", AttentionKernel::FlashAttention2},
        {"fa2", AttentionKernel::FlashAttention2},
        {"flash-attention-3", AttentionKernel::FlashAttention3},
        {"fa3", AttentionKernel::FlashAttention3},
        {"te", AttentionKernel::Cudnn},
        {"fused_attention", AttentionKernel::Cudnn},
        {"math", AttentionKernel::Unfused},
        {"eager", AttentionKernel::Unfused}};
    for (const auto& [name, kernel] : kAliases)
        if (equalsIgnoreCase(s, name))
            return kernel;
    return parseOf(kAttentionKernel, s);
}

std::optional<RecomputeModule> parseRecomputeModule(std::string_view s) {
    for (const auto& m : kRecomputeModuleNames)
        if (m.name == s)
            return m.bit;
    return std::nullopt;
}

std::string recomputeModulesText(unsigned modules, std::string_view separator) {
    std::string out;
    for (const auto& m : kRecomputeModuleNames) {
        if ((modules & m.bit) == 0)
            continue;
        if (!out.empty())
            out += separator;
        out += m.name;
    }
    return out;
}

std::optional<unsigned> parseRecomputeModules(std::string_view list, std::string* bad) {
    unsigned bits = 0;
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        std::string_view item = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
        while (!item.empty() && item.front() == ' ')
            item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ')
            item.remove_suffix(1);
        if (item.empty())
            continue;
        const auto bit = parseRecomputeModule(item);
        if (!bit) {
            if (bad)
                *bad = std::string(item);
            return std::nullopt;
        }
        bits |= *bit;
    }
    return bits;
}

} // namespace lp::core

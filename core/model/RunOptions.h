#pragma once
// The run a layout is chosen for: how many tokens (a number, or a rule from scaling laws or a budget), what a
// GPU-hour costs and draws, and how often the job fails and checkpoints (docs/estimation.md, "Run length,
// cost and goodput").
#include <optional>
#include <string_view>

namespace lp::core {

// How the number of tokens to train is stated.
enum class TokenRule {
    Tokens,             // TrainingOptions::tokenBudget, as written
    ComputeOptimal,     // Hoffmann et al. 2022: about 20 tokens per parameter
    TokensPerParameter, // RunOptions::tokensPerParameter x parameters
    Compute,            // RunOptions::computeBudgetFlops = 6 x parameters x tokens
    Days,               // the tokens this layout trains in RunOptions::daysBudget of wall clock
    Money,              // the tokens RunOptions::moneyBudgetUsd buys at the price per GPU-hour
};
// The published fit L(N, D) = E + A/N^alpha + B/D^beta the predicted loss uses.
enum class LossFit { Hoffmann2022, Besiroglu2024 };

std::string_view toString(TokenRule v);
std::string_view toString(LossFit v);
std::optional<TokenRule> parseTokenRule(std::string_view s);
std::optional<LossFit> parseLossFit(std::string_view s);

// Llama 3 405B pre-training: 419 unexpected interruptions in 54 days on 16,384 H100 (Dubey et al. 2024).
inline constexpr double kLlama3FailuresPerGpuHour = 419.0 / (54.0 * 24.0 * 16384.0);

struct RunOptions {
    TokenRule tokenRule = TokenRule::Tokens;
    double tokensPerParameter = 20; // with TokenRule::TokensPerParameter
    double computeBudgetFlops = 0;  // with TokenRule::Compute
    double daysBudget = 0;          // with TokenRule::Days
    double moneyBudgetUsd = 0;      // with TokenRule::Money
    LossFit lossFit = LossFit::Hoffmann2022;
    double pricePerGpuHourUsd = 0;      // 0: the cluster preset's, else the GPU preset's
    double boardPowerWatts = 0;         // per GPU under training load; 0: the GPU preset's
    double nodeOverheadFraction = 0.82; // CPUs, memory, NICs, fans: of the GPUs' power (DGX H100 data sheet)
    double pue = 1.1;                   // power usage effectiveness of the data centre
    double gpuFailuresPerHour = kLlama3FailuresPerGpuHour; // interruptions per GPU-hour
    double checkpointBandwidth = 1e9;                      // bytes/s one node writes to storage
    double restartSeconds = 600; // from a failure to training again (reschedule, load, warm up)
    // Checkpoints copied to pinned host memory and written in the background (torch.distributed.checkpoint
    // async_save, Megatron-LM --async-save): training waits only for the copy.
    bool asyncCheckpoint = false;
    double deadlineDays = 0; // 0: none
    bool operator==(const RunOptions&) const = default;
};

} // namespace lp::core

#pragma once
// The largest sizes a scenario may hold: generous, far beyond any real model or cluster, and low enough
// that products of them cannot overflow the planner's arithmetic or catch a typo (docs/formats.md).
// One set of limits for every way in: scenario files, the built-in presets, validation cases, Hugging Face
// configs, the command line and the window's fields, so that whatever one of them accepts the others read
// back.

namespace lp::core::limits {

constexpr long long kMaxLayers = 100000;
constexpr long long kMaxHidden = 1000000; // hidden size, head size, MLA widths
constexpr long long kMaxHeads = 100000;   // attention heads, KV heads, experts, top-k
constexpr long long kMaxWidth = 10000000; // ffn_hidden, vocab, seq_len
constexpr long long kMaxCount = 1000000;  // nodes, GPUs per node, NVLink domain, layout degrees, micro batch,
                                          // accumulation, shard degree, recomputed or offloaded layers
constexpr long long kMaxGlobalBatch = 100000000; // sequences per optimizer step (a validation case's)
constexpr long long kMaxLogitsMetricPasses = 16; // eager metric passes over the logits per micro batch
constexpr double kMaxRate = 1e18;                // FLOP/s, bytes, bytes/s, tokens

// Physical lower bounds: below them a figure is a typo or a denormal, and a step's time, a run's days or
// a kernel's share would overflow to infinity (docs/formats.md, "Physical lower bounds").
constexpr double kMinFlops = 1e9;            // peak FLOP/s of a GPU: at least 1 GFLOP/s
constexpr double kMinBandwidth = 1e6;        // bytes/s of any memory or link: at least 1 MB/s
constexpr double kMinMemoryBytes = 1e6;      // a GPU's or a host's memory: at least 1 MB
constexpr double kMinEfficiency = 1e-6;      // a kernel's share of its nominal figure
constexpr double kMinTokensPerSecond = 1;    // a data loader's throughput
constexpr double kMinTokenBudget = 1;        // tokens to train
constexpr double kMaxStragglerSlowdown = 10; // the slowest rank's extra time, as a fraction (10 = 11x)
// A point of an efficiency curve: a tiny message's share of a link falls to 1e-7 and below in the built-in
// profiles, so this floor only keeps out zero and the denormals.
constexpr double kMinCurveEfficiency = 1e-30;

// The most layouts one search may try: about ten seconds on two cores (docs/cli.md, "search").
constexpr long long kMaxSearchCandidates = 2000000;

} // namespace lp::core::limits

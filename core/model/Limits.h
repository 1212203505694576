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

} // namespace lp::core::limits

#pragma once
// What a validation case's source and notes state about the run where the case format has no field for it
// (dates, recomputation, sharding, offload, the trainer), read by the @1 reader that the converter keeps.
#include "core/model/Scenario.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace lp::tools::prose {

// The latest month that the (lower-cased) source or notes of a case state, as year x 100 + month: "2025-06",
// "202412", "2024/12", "June 2025", "Dec 2024"; a year alone counts as its December (nothing says earlier).
// Years 2015-2039 only, in runs of exactly four or six digits, so that sizes and counts are not read as
// dates. 0 when the text states none.
int latestStatedMonth(const std::string& text);

// Whether the (lower-cased) notes say that what `term` begins is not stated ("activation recomputation not
// stated (none assumed)", "recompute: not stated"): the words "not stated" within 30 characters after it, in
// the same clause.
bool notesLeaveOpen(const std::string& notes, std::string_view term);

// The JAX/MaxText remat policy the (lower-cased) notes state ("remat_policy=minimal_flash",
// "remat_policy save_dot_with_context_except_mlp"): the first one named; nullopt when none is.
std::optional<core::RematPolicy> statedRematPolicy(const std::string& notes);

// A whole number the (lower-cased) notes give right after one of `keys`, as a config or flag is written
// ("cpu_offloading_num_layers=40", "zero_shard_degree 8", "--data_parallel_shard_degree: 8"): the key as a
// whole word, then only spaces, '=', ':' and quotes (no sign: "=-1" is no count); the first such one;
// nullopt when none is.
std::optional<long long> statedNumber(const std::string& notes, std::initializer_list<std::string_view> keys);

// Megatron-Core recompute modules the (lower-cased) notes name after recompute_modules or
// --recompute-modules ("recompute_modules 'mla_up_proj'", "--recompute-modules core_attn mlp",
// "recompute_modules=[layernorm, mla_up_proj]"): the names up to the first word that is not one; nullopt
// when the notes name none.
std::optional<unsigned> statedRecomputeModules(const std::string& notes);

// Whether the (lower-cased) notes describe hybrid sharding (HSDP: FSDP within a group, replicas across
// groups) and not also full sharding over every rank: "hsdp", "hybrid_shard", "hybrid shard(ing)",
// "sharded within each node", "replicated across nodes"; one that also says "full shard"/"full_shard"
// (a note that covers several runs: "7b/13b hsdp, 34b/70b full shard") is read as neither.
bool statesHybridSharding(const std::string& notes);

// The interleaving (virtual pipeline stages per rank) the (lower-cased) notes give as Megatron writes it:
// --virtual-pipeline-model-parallel-size V, or --num-layers-per-virtual-pipeline-stage N (V = layers / (PP x
// N), when that is whole and at least 2); with the words that say it, for the case's adjustments.
std::optional<std::pair<int, std::string>> notedVirtualStages(const std::string& notes, int layers, int pp);

// The layers per chunk that Megatron's block recompute method covers, as the (lower-cased) notes give it
// (--recompute-method block with --recompute-num-layers N); nullopt unless both are there.
std::optional<long long> notedBlockRecomputeLayers(const std::string& notes);

// The expert tensor parallelism (the TP of a MoE layer's experts) the (lower-cased) notes give as a recipe
// writes it: "ETP1", "etp 4", "expert tensor parallel 4", expert_tensor_parallel_size / Megatron's
// --expert-tensor-parallel-size; nullopt when they give none.
std::optional<long long> notedExpertTensorParallel(const std::string& notes);

// Whether the (lower-cased) notes state that the optimizer ran on the CPU: ZeRO-Offload or ZeRO-Infinity,
// DeepSpeed's offload_optimizer (not to "none"), Megatron's --optimizer-cpu-offload, or "optimizer offload";
// not denied ("no", "not", "without" before, "off", "disabled", false after).
bool statesOptimizerOffload(const std::string& notes);

// The hybrid-sharding degree (HSDP) that a sharded case's (ZeRO 1-3) notes give where its layout does not: a
// degree they state (zero_shard_degree, torchtitan's data_parallel_shard_degree, DeepSpeed's mics_shard_size,
// MaxText's ici_fsdp_parallelism x dcn_fsdp_parallelism), or the replicas they state
// (data_parallel_replicate_degree, MaxText's dcn_data_parallelism, Megatron's
// --num-distributed-optimizer-instances), or, where they only name hybrid sharding
// (FSDP's HYBRID_SHARD, "HSDP") at ZeRO 3, one node's GPUs over TP x CP: the groups FSDP1's HYBRID_SHARD and
// the HSDP recipes of torchtitan and OLMo-core shard within. {0, ""} when none applies, when what is stated
// is full sharding (one replica), or when the degree does not divide DP.
std::pair<int, std::string> notedShardDegree(const core::Scenario& s, const std::string& notes);

// Whether the (lower-cased) source names a PyTorch-native trainer (torchtitan, llm-foundry / Composer,
// fms-fsdp, NeMo AutoModel, OLMo, nanoGPT, Accelerate, DeepSpeed without Megatron, "FSDP", ...), never a NeMo
// recipe or GPT-NeoX (Megatron's kernels).
bool namesTorchTrainer(const std::string& loweredSource);

// Whether the (lower-cased) notes name `term` and do not negate it ("no", "not", "without" before it, "off",
// "disabled" or false after it).
bool notesState(const std::string& notes, const std::string& term);

// Whether the (lower-cased) notes, or else the id, say the model was compiled (torch.compile or a trainer's
// compile switch, not denied).
bool statesTorchCompile(const std::string& notes, const std::string& id);

// Whether the (lower-cased) notes name a PyTorch trainer's fused kernels ("Transformer Engine", "TE" as a
// word, "Liger").
bool statesFusedKernels(const std::string& notes);

} // namespace lp::tools::prose

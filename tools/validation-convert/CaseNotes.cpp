// What the validation-case reader learns from a case's free-text source and notes
// (tools/validation-convert/ProseReading.cpp).
#include "tools/validation-convert/CaseNotes.h"

#include "core/util/Text.h"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <utility>

namespace lp::tools::prose {

using namespace lp::core;

namespace {

// Whether the words just before `at` deny what follows: "no ", "not ", "without ".
bool deniedBefore(const std::string& notes, std::size_t at) {
    const std::string_view before(notes.data() + (at >= 8 ? at - 8 : 0), std::min<std::size_t>(at, 8));
    return before.ends_with("no ") || before.ends_with("not ") || before.ends_with("without ");
}

} // namespace

int latestStatedMonth(const std::string& text) {
    static constexpr std::array<std::string_view, 12> kMonths{"jan", "feb", "mar", "apr", "may", "jun",
                                                              "jul", "aug", "sep", "oct", "nov", "dec"};
    const auto digit = [&](std::size_t i) { return i < text.size() && text[i] >= '0' && text[i] <= '9'; };
    const auto number = [&](std::size_t from, std::size_t count) {
        int v = 0;
        for (std::size_t k = from; k < from + count; ++k)
            v = v * 10 + (text[k] - '0');
        return v;
    };
    int latest = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!digit(i) || (i > 0 && digit(i - 1)))
            continue;
        std::size_t run = i;
        while (digit(run))
            ++run;
        const std::size_t length = run - i;
        if (length != 4 && length != 6)
            continue;
        const int year = number(i, 4);
        if (year < 2015 || year > 2039)
            continue;
        int month = length == 6 ? number(i + 4, 2) : 0;
        // "2025-06", "2024/12", "2024_12": a separator and two digits (not a third, as in "2024-123").
        if (length == 4 && run < text.size() &&
            std::string_view("-_/.").find(text[run]) != std::string_view::npos && digit(run + 1) &&
            digit(run + 2) && !digit(run + 3))
            month = number(run + 1, 2);
        // "June 2025", "dec. 2024": a month's name just before the year.
        if (length == 4 && month == 0) {
            std::size_t end = i;
            while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == ',' || text[end - 1] == '.'))
                --end;
            std::size_t start = end;
            while (start > 0 && text[start - 1] >= 'a' && text[start - 1] <= 'z')
                --start;
            const std::string_view word(text.data() + start, end - start);
            for (std::size_t m = 0; m < kMonths.size() && word.size() >= 3; ++m)
                if (word.substr(0, 3) == kMonths[m])
                    month = static_cast<int>(m) + 1;
        }
        if (month < 1 || month > 12)
            month = length == 4 ? 12 : 0;
        if (month > 0)
            latest = std::max(latest, year * 100 + month);
    }
    return latest;
}

bool notesLeaveOpen(const std::string& notes, std::string_view term) {
    for (std::size_t at = notes.find(term); at != std::string::npos; at = notes.find(term, at + 1)) {
        const std::size_t from = at + term.size();
        const std::string_view after(notes.data() + from, std::min<std::size_t>(notes.size() - from, 30));
        const std::size_t open = after.find("not stated");
        if (open != std::string_view::npos &&
            after.substr(0, open).find_first_of(".;,") == std::string_view::npos)
            return true;
    }
    return false;
}

std::optional<RematPolicy> statedRematPolicy(const std::string& notes) {
    constexpr std::string_view kKey = "remat_policy";
    const auto nameChar = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; };
    for (std::size_t at = notes.find(kKey); at != std::string::npos; at = notes.find(kKey, at + 1)) {
        std::size_t i = at + kKey.size();
        while (i < notes.size() && std::string_view(" =:'\"`").find(notes[i]) != std::string_view::npos)
            ++i;
        std::size_t end = i;
        while (end < notes.size() && nameChar(notes[end]))
            ++end;
        if (const auto policy = parseRematPolicy(std::string_view(notes).substr(i, end - i)))
            return policy;
    }
    return std::nullopt;
}

std::optional<long long> statedNumber(const std::string& notes,
                                      std::initializer_list<std::string_view> keys) {
    const auto nameChar = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; };
    for (const std::string_view key : keys) {
        for (std::size_t at = notes.find(key); at != std::string::npos; at = notes.find(key, at + 1)) {
            // The key as a whole word ("shard_degree" is not read inside "zero_shard_degree").
            if (at > 0 && nameChar(notes[at - 1]))
                continue;
            // Then only separators: a sign is not one (MaxText's "ici_fsdp_parallelism=-1" means "the rest").
            std::size_t i = at + key.size();
            while (i < notes.size() && std::string_view(" =:'\"`").find(notes[i]) != std::string_view::npos)
                ++i;
            long long v = 0;
            std::size_t digits = 0;
            for (; i < notes.size() && notes[i] >= '0' && notes[i] <= '9' && digits < 9; ++i, ++digits)
                v = v * 10 + (notes[i] - '0');
            // A whole number, not the start of a decimal or a size ("8.5", "40gb"); a full stop may end it.
            const bool decimal =
                i + 1 < notes.size() && notes[i] == '.' && notes[i + 1] >= '0' && notes[i + 1] <= '9';
            if (digits > 0 && digits < 9 && (i >= notes.size() || !(nameChar(notes[i]) || decimal)))
                return v;
        }
    }
    return std::nullopt;
}

std::optional<unsigned> statedRecomputeModules(const std::string& notes) {
    const auto nameChar = [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; };
    for (const std::string_view key :
         {std::string_view("recompute_modules"), std::string_view("recompute-modules")}) {
        for (std::size_t at = notes.find(key); at != std::string::npos; at = notes.find(key, at + 1)) {
            unsigned bits = 0;
            std::size_t i = at + key.size();
            while (true) {
                while (i < notes.size() &&
                       std::string_view(" =:'\"`[],").find(notes[i]) != std::string_view::npos)
                    ++i;
                std::size_t end = i;
                while (end < notes.size() && nameChar(notes[end]))
                    ++end;
                const std::string_view word = std::string_view(notes).substr(i, end - i);
                if (word == "and" && bits != 0) {
                    i = end;
                    continue;
                }
                const auto bit = parseRecomputeModule(word);
                if (!bit || end == i)
                    break;
                bits |= *bit;
                i = end;
            }
            if (bits != 0)
                return bits;
        }
    }
    return std::nullopt;
}

bool statesHybridSharding(const std::string& notes) {
    for (const char* full : {"full shard", "full_shard", "full-shard"})
        if (notes.find(full) != std::string::npos)
            return false;
    for (const char* term :
         {"hsdp", "hybrid_shard", "hybrid shard", "hybrid-shard", "sharded within each node",
          "sharded within a node", "sharded within the node", "replicated across nodes"}) {
        for (std::size_t at = notes.find(term); at != std::string::npos; at = notes.find(term, at + 1)) {
            if (!deniedBefore(notes, at))
                return true;
        }
    }
    return false;
}

std::optional<std::pair<int, std::string>> notedVirtualStages(const std::string& notes, int layers, int pp) {
    if (const auto v = statedNumber(
            notes, {"virtual-pipeline-model-parallel-size", "virtual_pipeline_model_parallel_size"});
        v && *v >= 1 && *v <= 1000)
        return std::pair<int, std::string>{static_cast<int>(*v),
                                           "the notes state virtual_pipeline_model_parallel_size " +
                                               std::to_string(*v)};
    if (const auto n = statedNumber(
            notes, {"num-layers-per-virtual-pipeline-stage", "num_layers_per_virtual_pipeline_stage"});
        n && *n >= 1 && pp >= 1 && layers % (static_cast<long long>(pp) * *n) == 0 && layers / (pp * *n) >= 2)
        return std::pair<int, std::string>{static_cast<int>(layers / (pp * *n)),
                                           "the notes state " + std::to_string(*n) +
                                               " layers per virtual pipeline stage"};
    return std::nullopt;
}

std::optional<long long> notedExpertTensorParallel(const std::string& notes) {
    return statedNumber(notes, {"expert_tensor_parallel_size", "expert-tensor-parallel-size",
                                "expert tensor parallel", "etp"});
}

std::optional<long long> notedBlockRecomputeLayers(const std::string& notes) {
    bool block = false;
    for (const char* term :
         {"recompute-method block", "recompute_method block", "recompute_method=block",
          "recompute_method: block", "recompute_method='block'", "recompute_method=\"block\""})
        block = block || notes.find(term) != std::string::npos;
    if (!block)
        return std::nullopt;
    return statedNumber(notes, {"recompute-num-layers", "recompute_num_layers"});
}

bool statesOptimizerOffload(const std::string& notes) {
    for (const std::string_view term :
         {"zero-offload", "zero offload", "zero-infinity", "offload_optimizer", "optimizer-cpu-offload",
          "optimizer_cpu_offload", "optimizer offload"}) {
        for (std::size_t at = notes.find(term); at != std::string::npos; at = notes.find(term, at + 1)) {
            if (deniedBefore(notes, at))
                continue;
            const std::size_t from = at + term.size();
            const std::string_view after(notes.data() + from, std::min<std::size_t>(notes.size() - from, 30));
            const std::size_t end = after.find_first_of(".;,)");
            const std::string_view clause = after.substr(0, end);
            if (clause.find("none") != std::string_view::npos ||
                clause.find("false") != std::string_view::npos ||
                clause.find(" off") != std::string_view::npos ||
                clause.find("disabled") != std::string_view::npos)
                continue;
            return true;
        }
    }
    return false;
}

std::pair<int, std::string> notedShardDegree(const Scenario& s, const std::string& notes) {
    const Layout& l = s.layout;
    if (s.training.zeroStage < 1 || l.dp <= 1)
        return {0, ""};
    const auto hybrid = [&](long long d, std::string why) -> std::pair<int, std::string> {
        if (d >= 1 && d < l.dp && l.dp % d == 0)
            return {static_cast<int>(d), std::move(why)};
        return {0, ""};
    };
    if (const auto d = statedNumber(notes, {"zero_shard_degree", "data_parallel_shard_degree", "dp_shard",
                                            "shard_degree", "mics_shard_size"}))
        return hybrid(*d, "the notes state a shard degree of " + std::to_string(*d));
    const auto ici = statedNumber(notes, {"ici_fsdp_parallelism"});
    const auto dcn = statedNumber(notes, {"dcn_fsdp_parallelism"});
    if (ici && dcn)
        return hybrid(*ici * *dcn, "the notes state ici_fsdp_parallelism " + std::to_string(*ici) +
                                       " x dcn_fsdp_parallelism " + std::to_string(*dcn));
    if (const auto r = statedNumber(notes, {"data_parallel_replicate_degree", "dp_replicate",
                                            "dcn_data_parallelism", "num-distributed-optimizer-instances",
                                            "num_distributed_optimizer_instances"});
        r && *r >= 1 && l.dp % *r == 0)
        return hybrid(l.dp / *r, "the notes state " + std::to_string(*r) + " replicas");
    const long long perNode = s.cluster.gpusPerNode / std::max(1LL, static_cast<long long>(l.tp) * l.cp);
    if (s.training.zeroStage >= 3 && statesHybridSharding(notes))
        return hybrid(perNode, "the notes name hybrid sharding (HSDP), within each node");
    return {0, ""};
}

// PyTorch-native trainers a case's source may name: torchtitan, MosaicML's llm-foundry and Composer, IBM's
// fms-fsdp, NeMo AutoModel, AI2's OLMo and OLMo-core, torchtune, Lightning's LitGPT and Fabric (TinyLlama's
// trainer), nanoGPT, Hugging Face's Accelerate and Transformers Trainer, axolotl, nanotron and picotron,
// OpenLM, DeepSpeed on its own (ZeRO under a Hugging Face model), or PyTorch FSDP by name. NVIDIA's NeMo
// recipes (other than AutoModel) are Megatron-Core's, whatever else their source says ("NeMo, built on
// PyTorch Lightning"), and GPT-NeoX runs Megatron's fused kernels under DeepSpeed.
bool namesTorchTrainer(const std::string& loweredSource) {
    const auto names = [&](std::string_view name) { return loweredSource.find(name) != std::string::npos; };
    if ((names("nemo") && !names("automodel")) || names("neox"))
        return false;
    for (const char* name :
         {"torchtitan", "llm-foundry", "llmfoundry",   "mosaicml", "composer",  "fms-fsdp",  "automodel",
          "olmo",       "torchtune",   "litgpt",       "lit-gpt",  "lightning", "tinyllama", "nanogpt",
          "accelerate", "huggingface", "hugging face", "axolotl",  "nanotron",  "picotron",  "open_lm",
          "openlm",     "deepspeed",   "fsdp",         "pytorch"})
        if (names(name))
            return true;
    return false;
}

// Nor whether the model was compiled, nor torchtitan's AsyncTP, but a case says so in its notes
// ("variant: FSDP + torch.compile", "FSDP 8 x TP 8 x PP 8 with AsyncTP"), and says "no torch.compile" or
// "without AsyncTP" when it was not. notesState: the (lower-cased) notes name `term` and do not negate it
// ("no", "not", "without" before it, "off" or "disabled" after it).
bool notesState(const std::string& notes, const std::string& term) {
    for (const char* before : {"no ", "not ", "without "})
        if (notes.find(before + term) != std::string::npos)
            return false;
    for (const char* after : {" off", " disabled", "=false", " = false", ": false"})
        if (notes.find(term + after) != std::string::npos)
            return false;
    return notes.find(term) != std::string::npos;
}

// Compiled: the notes say torch.compile (and do not deny it) or give the trainers' switch on (torchtitan's
// --training.compile, OLMo-core's compile_model=True, a config's compile: true), or, where they do not
// mention it, the id names the compiled variant ("..._compile").
bool statesTorchCompile(const std::string& notes, const std::string& id) {
    for (const char* eager :
         {"not compiled", "uncompiled", "compile=false", "compile: false", "compile = false"})
        if (notes.find(eager) != std::string::npos)
            return false;
    if (notes.find("torch.compile") != std::string::npos)
        return notesState(notes, "torch.compile");
    for (const char* on : {"compile=true", "compile: true", "compile = true", "compile_model=true",
                           "compile_model: true", "--training.compile", "--compile", "use_torch_compile"})
        if (notes.find(on) != std::string::npos)
            return true;
    return asciiLower(id).find("compile") != std::string::npos;
}

// Nor whether a PyTorch trainer ran fused kernels, but a case says so in its notes: NeMo AutoModel's table
// lists its "Kernel Optimizations" ("TE + DeepEP": Transformer Engine's linear, RMSNorm and fused RoPE),
// and Liger's kernels are named so. `notes` is lower-cased; "te" counts as a word only ("te + deepep", not
// "compute + ...").
bool statesFusedKernels(const std::string& notes) {
    if (notesState(notes, "transformer engine") || notesState(notes, "liger"))
        return true;
    const auto letter = [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
    };
    for (std::size_t at = notes.find("te"); at != std::string::npos; at = notes.find("te", at + 1)) {
        const bool wordStart = at == 0 || !letter(notes[at - 1]);
        const bool wordEnd = at + 2 >= notes.size() || !letter(notes[at + 2]);
        if (wordStart && wordEnd && notes.compare(at > 3 ? at - 3 : 0, at > 3 ? 3 : at, "no ") != 0)
            return true;
    }
    return false;
}

} // namespace lp::tools::prose

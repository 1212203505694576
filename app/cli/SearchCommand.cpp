// `layout-planner-cli search [SCENARIO.json] [flags] [--rank KEY] [--top N]
//  [--global-batch N | --global-batch-range A:B] [--threads N] [--shard-degrees LIST] [--json | --csv]
//  [--profile FILE]`
#include "app/cli/Commands.h"
#include "app/cli/ScenarioFlags.h"
#include "app/cli/TextFormat.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/PlanJson.h"
#include "core/io/Presets.h"
#include "core/model/Limits.h"
#include "core/model/Units.h"
#include "core/search/Search.h"
#include "core/search/SearchText.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>
#include <unistd.h>

namespace lp::cli {
namespace {

using nlohmann::json;

struct SearchFlags {
    core::RankBy rank = core::RankBy::StepTime;
    int top = 10;
    long long batchMin = 0, batchMax = 0;
    int threads = 0;
    bool csv = false;
    std::vector<int> shardDegrees; // empty: the scenario's own
};

std::expected<bool, CliError> takeSearchFlag(ArgCursor& args, SearchFlags& f) {
    const std::string name(args.peekName());
    if (name == "--csv") {
        if (auto r = args.takeSwitch(); !r)
            return std::unexpected(r.error());
        f.csv = true;
        return true;
    }
    if (name != "--rank" && name != "--top" && name != "--global-batch" && name != "--global-batch-range" &&
        name != "--threads" && name != "--shard-degrees")
        return false;
    auto v = args.takeValue();
    if (!v)
        return std::unexpected(v.error());
    if (name == "--rank") {
        auto r = core::parseRankBy(*v);
        if (!r)
            return std::unexpected(badValue(
                "--rank", "must be step_time, mfu, cost, headroom, money or wall_clock, got '" + *v + "'"));
        f.rank = *r;
    } else if (name == "--top") {
        auto n = parseInt("--top", *v, 1, 100000);
        if (!n)
            return std::unexpected(n.error());
        f.top = *n;
    } else if (name == "--shard-degrees") {
        f.shardDegrees.clear();
        std::size_t from = 0;
        while (from <= v->size()) {
            const std::size_t comma = std::min(v->find(',', from), v->size());
            auto d = parseInt("--shard-degrees", v->substr(from, comma - from), 0, 1 << 20);
            if (!d)
                return std::unexpected(d.error());
            f.shardDegrees.push_back(*d);
            from = comma + 1;
        }
    } else if (name == "--threads") {
        auto n = parseInt("--threads", *v, 0, 1024);
        if (!n)
            return std::unexpected(n.error());
        f.threads = *n;
    } else if (name == "--global-batch") {
        auto n = parseInteger("--global-batch", *v, 1, 1LL << 40);
        if (!n)
            return std::unexpected(n.error());
        f.batchMin = f.batchMax = *n;
    } else {
        const auto colon = v->find(':');
        if (colon == std::string::npos)
            return std::unexpected(badValue("--global-batch-range", "expected A:B, got '" + *v + "'"));
        auto a = parseInteger("--global-batch-range", v->substr(0, colon), 1, 1LL << 40);
        auto b = parseInteger("--global-batch-range", v->substr(colon + 1), 1, 1LL << 40);
        if (!a)
            return std::unexpected(a.error());
        if (!b)
            return std::unexpected(b.error());
        if (*b < *a)
            return std::unexpected(badValue("--global-batch-range", "the end is smaller than the start"));
        f.batchMin = *a;
        f.batchMax = *b;
    }
    return true;
}

json entryJson(const core::Scenario& base, const core::HardwareProfile* profile, const core::SearchEntry& e) {
    const core::Scenario s = core::applyChoice(base, e.choice);
    const core::Plan plan = profile ? core::evaluate(s, *profile) : core::evaluate(s);
    json j = core::planToJson(s, plan);
    j["global_batch"] = e.globalBatch;
    j["zero_stage"] = e.choice.zeroStage;
    j["zero_shard_degree"] = e.choice.zeroShardDegree;
    j["recompute"] = std::string(core::toString(e.choice.recompute));
    j["recompute_layers"] = e.choice.recomputeLayers;
    j["sequence_parallel"] = e.choice.sequenceParallel;
    return j;
}

std::string csvOf(const core::SearchResult& r) {
    std::ostringstream o;
    o << "rank,tp,pp,dp,cp,ep,vpp,micro_batch,accumulation,global_batch,zero_stage,recompute,sequence_"
         "parallel,step_s,mfu,tokens_per_s,worst_stage_bytes,headroom_bytes,gpu_hours,pareto,zero_shard_"
         "degree,recompute_layers\n";
    auto onFront = [&](const core::SearchEntry& e) {
        for (const auto& p : r.pareto)
            if (p.choice == e.choice && p.globalBatch == e.globalBatch)
                return true;
        return false;
    };
    int rank = 1;
    for (const auto& e : r.top) {
        const core::Layout& l = e.choice.layout;
        o << rank++ << ',' << l.tp << ',' << l.pp << ',' << l.dp << ',' << l.cp << ',' << l.ep << ',' << l.vpp
          << ',' << l.microBatch << ',' << l.accumulation << ',' << e.globalBatch << ',' << e.choice.zeroStage
          << ',' << core::toString(e.choice.recompute) << ',' << (e.choice.sequenceParallel ? "on" : "off")
          << ',' << sig(e.stepSeconds, 6) << ',' << sig(e.mfu, 4) << ',' << sig(e.tokensPerSecond, 6) << ','
          << sig(e.worstStageBytes, 6) << ',' << sig(e.headroomBytes, 6) << ',' << sig(e.gpuHours, 6) << ','
          << (onFront(e) ? "yes" : "no") << ',' << e.choice.zeroShardDegree << ',' << e.choice.recomputeLayers
          << '\n';
    }
    return o.str();
}

using Figure = core::SearchFigure;

// A column's cell as the Explore table words it (memory in GiB, as the headings say).
std::string cell(const core::SearchEntry& e, Figure f) {
    return core::searchFigureText(e, f, core::MemoryUnit::GiB);
}

std::string textOf(const core::SearchResult& r) {
    std::ostringstream o;
    const core::FigureFormat words; // memory in GiB, as the table's columns
    o << core::searchOutcomeText(r, words) << "\n\n";
    TextTable t({"#", "TP", "PP", "DP", "CP", "EP", "v", "mb", "acc", "ZeRO", "recompute", "SP", "step",
                 "MFU", "tokens/s", "worst GiB", "headroom GiB"},
                {Align::Right});
    int rank = 1;
    for (const auto& e : r.top) {
        const core::Layout& l = e.choice.layout;
        t.addRow({std::to_string(rank++), std::to_string(l.tp), std::to_string(l.pp), std::to_string(l.dp),
                  std::to_string(l.cp), std::to_string(l.ep), std::to_string(l.vpp),
                  std::to_string(l.microBatch), std::to_string(l.accumulation), cell(e, Figure::Zero),
                  core::recomputeChoiceText(e.choice), cell(e, Figure::SequenceParallel),
                  cell(e, Figure::StepTime), cell(e, Figure::Mfu), cell(e, Figure::TokensPerSecond),
                  cell(e, Figure::WorstMemory), cell(e, Figure::Headroom)});
    }
    if (!r.top.empty()) // where nothing fits, the line above names the nearest miss instead
        o << t.render(0) << '\n';
    o << "Rejected:";
    const std::vector<std::string> rejected = core::rejectionLines(r, words);
    if (rejected.empty())
        o << " none";
    for (const std::string& line : rejected)
        o << "\n  " << line;
    o << '\n';
    return o.str();
}

// A search larger than the limit would run for many minutes: refused, with the size and what to narrow.
CliError tooManyCandidates(const SearchFlags& flags, long long candidates) {
    const bool range = flags.batchMax > flags.batchMin;
    return badValue(
        range ? "--global-batch-range" : "search",
        "the search would try " + fixed(static_cast<double>(candidates), 0) + " layouts, more than the " +
            fixed(static_cast<double>(core::limits::kMaxSearchCandidates), 0) + " one search may try" +
            (range ? ": narrow the range of global batches" : ": fix more of the layout"));
}

// "searching: 42 %" on a terminal's standard error, rewritten in place as the search goes.
struct ProgressLine {
    int shownPercent = -1;
    bool operator()(double fraction) {
        const int percent = static_cast<int>(fraction * 100.0);
        if (percent != shownPercent) {
            shownPercent = percent;
            std::cerr << "\rsearching: " << percent << " %" << std::flush;
        }
        return true;
    }
};

} // namespace

std::string searchHelp() {
    return "Usage: layout-planner-cli search [SCENARIO.json] [FLAGS] [--rank KEY]\n  "
           "     [--top N] [--global-batch N | --global-batch-range A:B] [--threads N] [--json | --csv]\n    "
           "   [--profile PROFILE.json]\n\nTries every valid layout of the scenario's GPUs (TP, PP, DP, CP, "
           "EP, virtual stages, micro batch,\naccumulation, ZeRO stage, recompute, sequence parallel) for "
           "the global batch, keeps those that fit,\nand ranks them. Prints the top N, the size of the "
           "Pareto front of throughput against memory\nheadroom, and how many layouts were rejected for each "
           "reason.\n\nOptions:\n  --rank KEY                  step_time (default), mfu, cost (GPU-hours), "
           "headroom,\n                              money (dollars for the run) or wall_clock (days)\n  "
           "--top N                     how many layouts to list (default 10)\n  --global-batch "
           "N            the global batch in sequences (default: the scenario's)\n  --global-batch-range A:B "
           "   every global batch from A to B sequences (at most " +
           fixed(static_cast<double>(core::limits::kMaxSearchCandidates), 0) +
           " layouts in all)\n  --threads N                 worker threads "
           "(default: all cores)\n  --shard-degrees LIST        hybrid-sharding degrees to try with ZeRO >= "
           "1, e.g. 0,8 (0 = all DP\n                              ranks; default: the scenario's "
           "--shard-degree)\n  --json                      {\"evaluated\", \"valid\", \"fitting\", "
           "\"rejected\", \"pareto\", \"top\"; where none fits,\n                              "
           "\"closest_miss\": the "
           "valid layout nearest to fitting}, each\n                              layout in the shape of "
           "`evaluate --json`\n  --csv                       the top layouts as CSV\n  --profile FILE        "
           "      use a hardware profile file\n\nScenario flags:\n" +
           scenarioFlagsHelp() + "\n" + exitCodesHelp();
}

int runSearch(const Args& argv) {
    const bool jsonOut = hasSwitch(argv, "--json");
    SearchFlags flags;
    auto parsed =
        parseScenarioArgs("search", argv, true, [&](ArgCursor& args) { return takeSearchFlag(args, flags); });
    if (!parsed)
        return reportError(parsed.error(), jsonOut);
    if (jsonOut && flags.csv)
        return reportError(badValue("--csv", "choose one of --json and --csv"), jsonOut);
    auto scenario = buildScenario(parsed->file, parsed->overrides);
    if (!scenario)
        return reportError(scenario.error(), jsonOut);
    std::optional<core::HardwareProfile> profile;
    if (parsed->profileFile) {
        auto p = loadProfileArg(*parsed->profileFile);
        if (!p)
            return reportError(p.error(), jsonOut);
        profile = std::move(*p);
    }
    const core::HardwareProfile& prof = profile ? *profile : core::builtinProfile(scenario->cluster.gpu);

    core::SearchSpace space = core::defaultSearchSpace(*scenario);
    space.globalBatchMin = flags.batchMin;
    space.globalBatchMax = flags.batchMax;
    space.shardDegrees = flags.shardDegrees;
    if (const long long candidates = core::countCandidates(*scenario, space);
        candidates > core::limits::kMaxSearchCandidates)
        return reportError(tooManyCandidates(flags, candidates), jsonOut);
    core::SearchOptions options;
    options.rankBy = flags.rank;
    options.topN = flags.top;
    options.threads = flags.threads;
    const bool showProgress = isatty(STDERR_FILENO) == 1;
    if (showProgress)
        options.progress = ProgressLine();
    const core::SearchResult r = core::search(*scenario, prof, space, {}, options);
    if (showProgress)
        std::cerr << "\r\033[K" << std::flush; // the progress line, cleared before the results

    if (jsonOut) {
        json j{{"evaluated", r.evaluated},
               {"valid", r.valid},
               {"fitting", r.fitting},
               {"block_recompute", r.blockRecompute},
               {"selective_as_none", r.selectiveAsNone},
               {"candidates", r.candidates},
               {"seconds", r.seconds},
               {"rank_by", std::string(core::toString(r.rankBy))}};
        j["rejected"] = json::object();
        for (const auto& [reason, n] : r.rejected)
            j["rejected"][reason] = n;
        j["top"] = json::array();
        for (const auto& e : r.top)
            j["top"].push_back(entryJson(*scenario, &prof, e));
        j["pareto"] = json::array();
        for (const auto& e : r.pareto)
            j["pareto"].push_back(entryJson(*scenario, &prof, e));
        if (r.fitting == 0 && r.closestMiss) // the valid layout nearest to fitting
            j["closest_miss"] = entryJson(*scenario, &prof, *r.closestMiss);
        core::sanitizeNonFinite(j);
        std::cout << j.dump(2) << '\n';
    } else if (flags.csv) {
        std::cout << csvOf(r);
    } else {
        std::cout << textOf(r);
    }
    return kExitOk;
}

} // namespace lp::cli

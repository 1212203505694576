// Scenario and hardware-profile files: exact round trips, preset names, every malformed file in
// tests/data/malformed giving its path and reason, parse-error positions, atomic saves.
#include "IoTestSupport.h"
#include "core/io/Presets.h"

LP_TEST(defaultScenarioRoundTripsExactly) {
    const Scenario s = defaultScenario();
    const std::string text = scenarioToJson(s);
    const auto back = scenarioFromJson(text);
    LP_CHECK(back.has_value());
    if (!back)
        return std::fprintf(stderr, "%s", allMessages(back.error()).c_str()), void();
    LP_CHECK(*back == s);
    LP_CHECK_EQ(scenarioToJson(*back), text);
}

LP_TEST(randomScenariosRoundTripExactly) {
    Random r(20250131);
    int failures = 0;
    for (int i = 0; i < 3000 && failures < 3; ++i) {
        const Scenario s = randomScenario(r);
        const std::string text = scenarioToJson(s);
        const auto back = scenarioFromJson(text);
        if (!back) {
            ++failures;
            LP_CHECK(back.has_value());
            std::fprintf(stderr, "random scenario %d rejected:\n%s%s\n", i, allMessages(back.error()).c_str(),
                         text.c_str());
            continue;
        }
        if (!(*back == s)) {
            ++failures;
            LP_CHECK(*back == s);
            std::fprintf(stderr, "random scenario %d changed:\n%s\nvs\n%s\n", i, text.c_str(),
                         scenarioToJson(*back).c_str());
        }
    }
}

LP_TEST(doublesRoundTripBitForBit) {
    // nlohmann writes the shortest representation that reads back to the same double; check it on
    // doubles with random bit patterns, including subnormals.
    Random r(7);
    Scenario s = defaultScenario();
    int mismatches = 0;
    for (int i = 0; i < 20000; ++i) {
        s.cluster.gpu.peakFlops8 = r.anyBits(limits::kMinFlops, 1e18);
        s.cluster.gpu.hbmBytes = r.anyBits(limits::kMinMemoryBytes, 1e18);
        s.training.loaderTokensPerSecond = r.anyBits(limits::kMinTokensPerSecond, 1e18);
        s.cluster.networkLatencySeconds = r.anyBits(1.0);
        const auto back = scenarioFromJson(scenarioToJson(s));
        if (!back || !(*back == s))
            ++mismatches;
    }
    s.cluster.nvlinkLatencySeconds = 4.9406564584124654e-324; // smallest subnormal (the rates have floors)
    s.cluster.networkLatencySeconds = 0.1 + 0.2;
    s.training.tokenBudget = 1e18;
    s.training.allocatorReserveFraction = std::nextafter(1.0, 0.0);
    const auto back = scenarioFromJson(scenarioToJson(s));
    LP_CHECK(back.has_value() && *back == s);
    LP_CHECK_EQ(mismatches, 0);
}

LP_TEST(savedFileLoadsBackEqual) {
    TempDir dir;
    Random r(3);
    const Scenario s = randomScenario(r);
    const auto saved = saveScenarioFile(dir.file("s.json"), s);
    LP_CHECK(saved.has_value());
    const auto loaded = loadScenarioFile(dir.file("s.json"));
    LP_CHECK(loaded.has_value() && *loaded == s);
}

// Counts an aggregate's fields: a field added to a struct that files hold must be added to the file
// format too (reader, writer, docs/formats.md, and randomScenario/randomProfile above).
struct AnyField {
    template <class T> operator T() const;
};
template <class T, class... A> constexpr std::size_t fieldCount() {
    if constexpr (requires { T{A{}..., AnyField{}}; })
        return fieldCount<T, A..., AnyField>();
    else
        return sizeof...(A);
}

LP_TEST(everyFieldIsInTheFileFormat) {
    // If one of these fails, a struct gained or lost a field: update core/io/ScenarioJson.cpp (read and write
    // it), docs/formats.md, randomScenario()/randomProfile() here, then the count.
    LP_CHECK_EQ(fieldCount<Scenario>(), 7u);
    LP_CHECK_EQ(fieldCount<RunOptions>(), 15u);
    LP_CHECK_EQ(fieldCount<ModelSpec>(), 18u);
    LP_CHECK_EQ(fieldCount<MlaSpec>(), 5u);
    LP_CHECK_EQ(fieldCount<MoeSpec>(), 8u);
    LP_CHECK_EQ(fieldCount<ClusterSpec>(), 8u);
    LP_CHECK_EQ(fieldCount<GpuSpec>(), 12u);
    LP_CHECK_EQ(fieldCount<TrainingOptions>(), 37u);
    LP_CHECK_EQ(fieldCount<Layout>(), 9u);
    LP_CHECK_EQ(fieldCount<HardwareProfile>(), 12u);
    LP_CHECK_EQ(fieldCount<KernelEfficiencies>(), 14u);
}

// ---------------------------------------------------------------------------------------------
// The files in tests/data/scenarios

LP_TEST(defaultScenarioFileIsTheDefaultScenario) {
    const auto s = loadScenarioFile(kDataDir + "/scenarios/default.json");
    LP_CHECK(s.has_value());
    if (!s)
        return std::fprintf(stderr, "%s", allMessages(s.error()).c_str()), void();
    const Scenario d = defaultScenario();
    LP_CHECK(s->model == d.model);
    LP_CHECK(s->training == d.training);
    LP_CHECK(s->layout == d.layout);
    LP_CHECK_EQ(s->cluster.nodes, 8);
    LP_CHECK_EQ(s->cluster.gpusPerNode, 8);
    LP_CHECK_EQ(s->cluster.gpu.id, std::string("h100-sxm-80gb"));
    LP_CHECK_EQ(s->cluster.gpu.hbmBytes, d.cluster.gpu.hbmBytes);
    LP_CHECK_EQ(s->cluster.nvlinkLatencySeconds, d.cluster.nvlinkLatencySeconds);
    LP_CHECK_EQ(s->cluster.networkLatencySeconds, d.cluster.networkLatencySeconds);
    LP_CHECK_EQ(s->layout.gpus(), 64);
    LP_CHECK_EQ(s->layout.effectiveBatch(), 64);
}

LP_TEST(presetNamesLoad) {
    const auto s = loadScenarioFile(kDataDir + "/scenarios/presets.json");
    LP_CHECK(s.has_value());
    if (!s)
        return std::fprintf(stderr, "%s", allMessages(s.error()).c_str()), void();
    const ModelPreset* model = findModelPreset("llama2-70b");
    const ClusterPreset* cluster = findClusterPreset("dgx-h100");
    LP_CHECK(model && cluster);
    if (!model || !cluster)
        return;
    LP_CHECK(s->model == model->model);
    LP_CHECK(s->cluster == makeCluster(*cluster, 8));
    LP_CHECK(s->training == TrainingOptions{});
    LP_CHECK_EQ(s->layout.tp, 8);
    LP_CHECK_EQ(s->layout.pp, 4);
    LP_CHECK_EQ(s->layout.dp, 2);
}

LP_TEST(spelledOutFileIsCanonical) {
    // Every field spelled out, in the order and formatting scenarioToJson writes: reading and writing
    // it again must give the same bytes.
    const std::string path = kDataDir + "/scenarios/spelled_out.json";
    const auto s = loadScenarioFile(path);
    LP_CHECK(s.has_value());
    if (!s)
        return std::fprintf(stderr, "%s", allMessages(s.error()).c_str()), void();
    const std::string written = scenarioToJson(*s);
    if (written != readAll(path)) {
        // The format changed (a field added?): check the difference, then copy the new text over.
        const std::string fresh = (fs::temp_directory_path() / "spelled_out.json").string();
        writeAll(fresh, written);
        LP_CHECK(!"spelled_out.json is not what scenarioToJson writes");
        std::fprintf(stderr, "  compare %s with %s\n", path.c_str(), fresh.c_str());
    }
    LP_CHECK_EQ(s->model.name, std::string("GPT-3 175B"));
    LP_CHECK_EQ(s->cluster.gpu.id, std::string("a100-sxm-80gb"));
    LP_CHECK_EQ(s->layout.gpus(), 1024);
}

LP_TEST(overridesOnPresetsAndDefaults) {
    const auto s = scenarioFromJson(scenarioText(R"(
        "model": {"preset": "Llama2-70B", "seq_len": 8192, "name": "long context"},
        "cluster": {"preset": "dgx-h100", "nodes": 2, "gpu": {"preset": "h200-sxm-141gb", "hbm_bytes": 1.2e11}},
        "training": {"optimizer": "AdamW", "precision": "FP8"})"));
    LP_CHECK(s.has_value());
    if (!s)
        return std::fprintf(stderr, "%s", allMessages(s.error()).c_str()), void();
    ModelSpec expectModel = findModelPreset("llama2-70b")->model;
    expectModel.seqLen = 8192;
    expectModel.name = "long context";
    LP_CHECK(s->model == expectModel);
    LP_CHECK_EQ(s->cluster.nodes, 2);
    LP_CHECK_EQ(s->cluster.gpu.id, std::string("h200-sxm-141gb"));
    LP_CHECK_EQ(s->cluster.gpu.hbmBytes, 1.2e11);
    LP_CHECK_EQ(s->cluster.gpu.peakFlops16, findGpuPreset("h200-sxm-141gb")->gpu.peakFlops16);
    LP_CHECK(s->training.optimizer == Optimizer::Adam);
    LP_CHECK(s->training.precision == Precision::Fp8);
    LP_CHECK_EQ(s->training.zeroStage, TrainingOptions{}.zeroStage);
    LP_CHECK(s->layout == Layout{});
    LP_CHECK(s->name == Scenario{}.name);
}

LP_TEST(missingKeysTakeTheDocumentedDefaults) {
    const auto bare = scenarioFromJson(scenarioText(""));
    LP_CHECK(bare.has_value() && *bare == Scenario{});

    // Without a preset, kv_heads follows heads and the NVLink domain follows the node size.
    const auto s = scenarioFromJson(scenarioText(R"("model": {"heads": 48, "hidden": 6144},
                                                    "cluster": {"gpus_per_node": 4, "gpu": "a100-sxm-40gb"})"));
    LP_CHECK(s.has_value());
    if (!s)
        return;
    LP_CHECK_EQ(s->model.kvHeads, 48);
    LP_CHECK_EQ(s->cluster.nvlinkDomain, 4);
    LP_CHECK(s->cluster.gpu == findGpuPreset("a100-sxm-40gb")->gpu);

    // An NVL72 preset keeps its rack-wide domain.
    const auto nvl = scenarioFromJson(scenarioText(R"("cluster": {"preset": "gb200-nvl72", "nodes": 18})"));
    LP_CHECK(nvl.has_value());
    if (nvl) {
        LP_CHECK_EQ(nvl->cluster.nvlinkDomain,
                    makeCluster(*findClusterPreset("gb200-nvl72"), 18).nvlinkDomain);
        LP_CHECK_EQ(nvl->cluster.nodes, 18);
    }

    // A cluster given as a preset name alone, and a dense model from a MoE preset.
    const auto named = scenarioFromJson(
        scenarioText(R"("cluster": "dgx-a100", "model": {"preset": "mixtral-8x7b", "moe": null})"));
    LP_CHECK(named.has_value());
    if (named) {
        LP_CHECK(named->cluster == makeCluster(*findClusterPreset("dgx-a100"), ClusterSpec{}.nodes));
        LP_CHECK(!named->model.isMoe());
    }

    // Integral numbers written as floats are integers.
    const auto floats = scenarioFromJson(scenarioText(R"("layout": {"tp": 8.0, "accumulation": 1e2})"));
    LP_CHECK(floats.has_value() && floats->layout.tp == 8 && floats->layout.accumulation == 100);
}

LP_TEST(examplesInTheDocsLoad) {
    // Every ```json block of docs/formats.md is a valid scenario or profile.
    const std::string doc = readAll(kDataDir + "/../../docs/formats.md");
    LP_CHECK(!doc.empty());
    int blocks = 0;
    for (std::size_t at = doc.find("```json\n"); at != std::string::npos; at = doc.find("```json\n", at)) {
        at += 8;
        const std::size_t end = doc.find("```", at);
        const std::string block = doc.substr(at, end - at);
        ++blocks;
        const bool isProfile = block.find(kProfileSchema) != std::string::npos;
        const InputErrors errors =
            isProfile ? (profileFromJson(block) ? InputErrors{} : profileFromJson(block).error())
                      : (scenarioFromJson(block) ? InputErrors{} : scenarioFromJson(block).error());
        if (!errors.empty()) {
            LP_CHECK(errors.empty());
            std::fprintf(stderr, "  docs/formats.md example %d:\n%s", blocks, allMessages(errors).c_str());
        }
    }
    LP_CHECK(blocks >= 3);
}

LP_TEST(layoutDivisibilityIsNotALoadError) {
    // heads % tp and the GPU count are evaluate()'s diagnostics, not file errors.
    const auto s = scenarioFromJson(
        scenarioText(R"("model": {"heads": 30, "hidden": 3000}, "layout": {"tp": 7, "pp": 3, "dp": 5})"));
    LP_CHECK(s.has_value());
}

// ---------------------------------------------------------------------------------------------
// Malformed files

LP_TEST(everyMalformedFileGivesItsPathAndReason) {
    struct Expectation {
        std::string path, words;
        int line = 0, column = 0;
        int sourceLine = 0;
    };
    std::map<std::string, std::vector<Expectation>> expected;
    std::ifstream in(kDataDir + "/malformed/expected.txt");
    LP_CHECK(in.good());
    std::string line;
    int lineNo = 0;
    const auto trim = [](std::string s) {
        const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
        return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    while (std::getline(in, line)) {
        ++lineNo;
        if (trim(line).empty() || trim(line)[0] == '#')
            continue;
        std::vector<std::string> fields;
        std::stringstream ss(line);
        for (std::string f; std::getline(ss, f, '|');)
            fields.push_back(trim(f));
        LP_CHECK(fields.size() == 3 || fields.size() == 4);
        if (fields.size() < 3)
            continue;
        Expectation e{fields[1] == "-" ? "" : fields[1], fields[2], 0, 0, lineNo};
        if (fields.size() == 4)
            LP_CHECK(std::sscanf(fields[3].c_str(), "%d:%d", &e.line, &e.column) == 2);
        expected[fields[0]].push_back(e);
    }

    int files = 0;
    for (const auto& entry : fs::directory_iterator(kDataDir + "/malformed")) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() != ".json")
            continue;
        ++files;
        const auto it = expected.find(name);
        if (it == expected.end()) {
            LP_CHECK(!"malformed file without an entry in expected.txt");
            std::fprintf(stderr, "  file: %s\n", name.c_str());
            continue;
        }
        const auto result = loadScenarioFile(entry.path().string());
        LP_CHECK(!result.has_value());
        if (result) {
            std::fprintf(stderr, "  %s loaded although it is malformed\n", name.c_str());
            continue;
        }
        const InputErrors& errors = result.error();
        for (const auto& e : errors)
            LP_CHECK(!e.reason.empty());
        for (const Expectation& want : it->second) {
            const bool found = std::any_of(errors.begin(), errors.end(), [&](const InputError& got) {
                return got.path == want.path && got.message().find(want.words) != std::string::npos &&
                       (want.line == 0 || (got.line == want.line && got.column == want.column));
            });
            if (!found) {
                LP_CHECK(found);
                std::fprintf(stderr, "  %s (expected.txt line %d): wanted path '%s', words '%s'",
                             name.c_str(), want.sourceLine, want.path.c_str(), want.words.c_str());
                if (want.line)
                    std::fprintf(stderr, " at %d:%d", want.line, want.column);
                std::fprintf(stderr, "; got:\n%s", allMessages(errors).c_str());
            }
        }
        if (it->second.size() > 1) // files with several problems report each, and nothing twice
            LP_CHECK(errors.size() >= it->second.size());
    }
    LP_CHECK(files >= 24);
    // Messages are valid UTF-8 even when the file is not (a byte that is not is written as <0xE9>).
    const auto utf8 = loadScenarioFile(kDataDir + "/malformed/invalid_utf8.json");
    LP_CHECK(!utf8.has_value() && utf8.error()[0].message().find("<0xE9>") != std::string::npos);
    for (const auto& [name, _] : expected)
        LP_CHECK(fs::exists(kDataDir + "/malformed/" + name));
}

LP_TEST(parseErrorsGiveLineAndColumn) {
    struct Case {
        std::string text;
        int line, column;
    };
    const std::vector<Case> cases = {
        {"{", 1, 2},
        {"{\"schema\": }", 1, 12},
        {"{\n  \"a\": 1,\n  \"b\": tru\n}", 3, 8},
        {"{\r\n  \"a\": [1, 2,, 3]\r\n}", 2, 14},
        {"\n\n\n   {\"a\" 1}", 4, 9},
        {"{\"a\": 1} x", 1, 10},
        {"{\"a\": \"\xc3\x28\"}", 1, 7},
        {"{\"a\": 1 2}", 1, 9},
        {"{\"a\": -12.5e3 7}", 1, 15},
        {R"({"a": "x\\" "b": 1})", 1, 13},
        {R"({"a": "q\"q" "b": 1})", 1, 14},
        {"{\"\xc3\xa9\": 1,}", 1, 9}, // columns count characters, not bytes
        {"{\"a\": 1.e5}", 1, 7},
        {"{\"a\": nul}", 1, 7},
    };
    for (const auto& c : cases) {
        const auto r = scenarioFromJson(c.text);
        LP_CHECK(!r.has_value());
        if (r)
            continue;
        LP_CHECK_EQ(r.error().size(), 1u);
        const InputError& e = r.error().front();
        LP_CHECK(e.reason.find("parse error") == 0);
        if (e.line != c.line || e.column != c.column)
            std::fprintf(stderr, "  text %s: got %d:%d (%s), wanted %d:%d\n", c.text.c_str(), e.line,
                         e.column, e.message().c_str(), c.line, c.column);
        LP_CHECK_EQ(e.line, c.line);
        LP_CHECK_EQ(e.column, c.column);
        LP_CHECK(e.message().rfind(
                     "line " + std::to_string(c.line) + ", column " + std::to_string(c.column) + ": ", 0) ==
                 0);
    }
}

LP_TEST(errorMessagesNameThePathAndNeverHalfLoad) {
    const auto r = scenarioFromJson(scenarioText(R"("model": {"heads": -3}, "layout": {"tp": 8})"));
    LP_CHECK(!r.has_value());
    if (r)
        return;
    LP_CHECK_EQ(r.error().size(), 1u);
    LP_CHECK_EQ(r.error()[0].path, std::string("$.model.heads"));
    LP_CHECK_EQ(r.error()[0].message(),
                std::string("$.model.heads: out of range: must be an integer from 1 to 100000, got -3"));

    const auto wrongFile = scenarioFromJson(profileToJson(builtinProfile(GpuSpec{})));
    LP_CHECK(!wrongFile.has_value() && hasError(wrongFile.error(), "$.schema", "not a scenario file"));
    // A newer file is rejected before its unknown keys are listed.
    const auto newer =
        scenarioFromJson(R"({"schema": "layout-planner/scenario", "version": 3, "new_thing": 1})");
    LP_CHECK(!newer.has_value() && newer.error().size() == 1 &&
             hasError(newer.error(), "$.version", "written by a newer version"));
    // Unknown enum values list what is allowed.
    const auto style = scenarioFromJson(scenarioText(R"("training": {"execution_style": "deepspeed"})"));
    LP_CHECK(!style.has_value() &&
             hasError(style.error(), "$.training.execution_style", "expected one of auto, megatron, fsdp"));
    // Keys that are not identifiers are quoted in the path.
    const auto odd = scenarioFromJson(scenarioText(R"("layout": {"t p": 1})"));
    LP_CHECK(!odd.has_value() && hasError(odd.error(), "$.layout[\"t p\"]", "unknown key"));
    // A case slip in a key still gets a suggestion.
    const auto caseSlip = scenarioFromJson(scenarioText(R"("layout": {"TP": 1})"));
    LP_CHECK(!caseSlip.has_value() && hasError(caseSlip.error(), "$.layout.TP", "did you mean \"tp\"?"));
}

LP_TEST(hostileFilesStayCheap) {
    // Deep nesting is refused early; thousands of problems are cut to the first hundred.
    const auto deep = scenarioFromJson(std::string(200000, '[') + std::string(200000, ']'));
    LP_CHECK(!deep.has_value() && deep.error().size() == 1 &&
             deep.error()[0].reason.find("nested too deeply") != std::string::npos);
    std::string many = "{" + kHeader;
    for (int i = 0; i < 5000; ++i)
        many += ", \"k" + std::to_string(i) + "\": " + std::to_string(i);
    many += "}";
    const auto r = scenarioFromJson(many);
    LP_CHECK(!r.has_value() && r.error().size() == 101);
    if (!r.has_value())
        LP_CHECK_EQ(r.error().back().reason, std::string("... and 4900 more problems"));
}

LP_TEST(randomDamageNeverCrashes) {
    // Mutations of a valid file: each either loads or reports errors with reasons; nothing throws.
    Random r(11);
    const std::string valid = scenarioToJson(defaultScenario());
    const std::string alphabet = "{}[]\":,0123456789.eE+-tfnul \n\\x";
    int loaded = 0, rejected = 0;
    for (int i = 0; i < 3000; ++i) {
        std::string text = valid;
        const int edits = r.integer(1, 4);
        for (int k = 0; k < edits; ++k) {
            const auto at = static_cast<std::size_t>(r.integer(0, static_cast<int>(text.size()) - 1));
            switch (r.integer(0, 2)) {
            case 0:
                text[at] =
                    alphabet[static_cast<std::size_t>(r.integer(0, static_cast<int>(alphabet.size()) - 1))];
                break;
            case 1:
                text.erase(at, static_cast<std::size_t>(r.integer(1, 20)));
                break;
            default:
                text.insert(at, 1, static_cast<char>(r.integer(0, 255)));
                break;
            }
        }
        const auto s = scenarioFromJson(text);
        if (s) {
            ++loaded;
        } else {
            ++rejected;
            LP_CHECK(!s.error().empty());
            for (const auto& e : s.error())
                LP_CHECK(!e.message().empty());
        }
    }
    LP_CHECK(rejected > 0);
    (void)loaded;
}

// ---------------------------------------------------------------------------------------------
// Reading files

LP_TEST(unreadableFilesSayWhy) {
    const auto missing = loadScenarioFile("/nonexistent-dir/scenario.json");
    LP_CHECK(!missing.has_value());
    if (!missing)
        LP_CHECK(missing.error().at(0).message().find(
                     "cannot read /nonexistent-dir/scenario.json: No such file or directory") !=
                 std::string::npos);

    TempDir dir;
    const auto isDir = readTextFile(dir.path);
    LP_CHECK(!isDir.has_value() && isDir.error().find("Is a directory") != std::string::npos);

    // Larger than the limit: a sparse file costs nothing to make.
    const std::string big = dir.file("big.json");
    const int fd = ::open(big.c_str(), O_WRONLY | O_CREAT, 0644);
    LP_CHECK(fd >= 0 && ::ftruncate(fd, 65LL * 1024 * 1024) == 0);
    ::close(fd);
    const auto tooBig = readTextFile(big);
    LP_CHECK(!tooBig.has_value() && tooBig.error().find("larger than 64 MiB") != std::string::npos);

    writeAll(dir.file("ok.txt"), std::string("a\0b", 3));
    const auto ok = readTextFile(dir.file("ok.txt"));
    LP_CHECK(ok.has_value() && *ok == std::string("a\0b", 3));
}

// ---------------------------------------------------------------------------------------------
// Atomic saves

LP_TEST(atomicSaveReplacesAndLeavesNoTemporaryFiles) {
    TempDir dir;
    const std::string path = dir.file("plan.json");
    LP_CHECK(writeFileAtomically(path, "first").has_value());
    LP_CHECK_EQ(readAll(path), std::string("first"));
    ::chmod(path.c_str(), 0640);
    LP_CHECK(writeFileAtomically(path, "second").has_value());
    LP_CHECK_EQ(readAll(path), std::string("second"));
    struct stat st {};
    LP_CHECK(::stat(path.c_str(), &st) == 0 && (st.st_mode & 0777) == 0640); // permissions kept
    LP_CHECK(dir.entries() == std::vector<std::string>{"plan.json"});

    // Through a symbolic link: the file it points to is replaced, the link stays.
    fs::create_symlink("plan.json", dir.file("link.json"));
    LP_CHECK(writeFileAtomically(dir.file("link.json"), "third").has_value());
    LP_CHECK(fs::is_symlink(dir.file("link.json")));
    LP_CHECK_EQ(readAll(path), std::string("third"));
    LP_CHECK((dir.entries() == std::vector<std::string>{"link.json", "plan.json"}));

    // A relative path without a folder writes into the working directory.
    const fs::path cwd = fs::current_path();
    fs::current_path(dir.path);
    LP_CHECK(writeFileAtomically("relative.json", "here").has_value());
    fs::current_path(cwd);
    LP_CHECK_EQ(readAll(dir.file("relative.json")), std::string("here"));
}

LP_TEST(failedSaveKeepsTheOldFileAndSaysWhy) {
    TempDir dir;
    // The parent "folder" is a regular file.
    writeAll(dir.file("not-a-dir"), "plain");
    const auto underFile = saveScenarioFile(dir.file("not-a-dir/s.json"), defaultScenario());
    LP_CHECK(!underFile.has_value());
    if (!underFile)
        LP_CHECK_EQ(underFile.error(), "cannot write " + dir.file("not-a-dir/s.json") + ": Not a directory");
    LP_CHECK_EQ(readAll(dir.file("not-a-dir")), std::string("plain"));

    // The parent folder does not exist.
    const auto noDir = writeFileAtomically(dir.file("missing/s.json"), "x");
    LP_CHECK(!noDir.has_value() && noDir.error().find("No such file or directory") != std::string::npos);

    // The target is a folder: it survives and no temporary file is left behind.
    fs::create_directory(dir.file("folder"));
    writeAll(dir.file("folder/inside.txt"), "kept");
    const auto onDir = writeFileAtomically(dir.file("folder"), "x");
    LP_CHECK(!onDir.has_value() && onDir.error().find("Is a directory") != std::string::npos);
    LP_CHECK_EQ(readAll(dir.file("folder/inside.txt")), std::string("kept"));
    LP_CHECK((dir.entries() == std::vector<std::string>{"folder", "not-a-dir"}));

    // A read-only folder (root ignores permissions, so only as another user).
    if (::geteuid() != 0) {
        fs::create_directory(dir.file("ro"));
        writeAll(dir.file("ro/s.json"), "old contents");
        ::chmod(dir.file("ro").c_str(), 0555);
        const auto ro = saveScenarioFile(dir.file("ro/s.json"), defaultScenario());
        ::chmod(dir.file("ro").c_str(), 0755);
        LP_CHECK(!ro.has_value());
        if (!ro)
            LP_CHECK_EQ(ro.error(), "cannot write " + dir.file("ro/s.json") + ": Permission denied");
        LP_CHECK_EQ(readAll(dir.file("ro/s.json")), std::string("old contents"));
        LP_CHECK(fs::directory_iterator(dir.file("ro"))->path().filename() == "s.json");
    } else {
        std::printf("note: running as root, the read-only folder check is skipped\n");
    }
}

// ---------------------------------------------------------------------------------------------
// Hardware profiles

LP_TEST_MAIN()

// Reading step times from a run: CSV, Megatron-LM and torchtitan log lines, pasted numbers.
#include "core/measured/RunLog.h"

#include "core/io/Files.h"
#include "core/measured/detail/LogFields.h"
#include "core/util/Statistics.h"
#include "core/util/Text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace lp::core {
namespace {

using detail::integerAt;
using detail::numberAt;
using detail::trim;
using detail::valueAfter;

// Input text quoted in a message: valid UTF-8 only (other bytes become '?', so that messages always
// serialise as JSON), control characters dropped, at most 40 characters.
std::string quoted(std::string_view s) {
    std::string out = "\"";
    std::size_t chars = 0;
    for (std::size_t i = 0; i < s.size() && chars < 40; ++chars) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        bool valid = len > 0 && i + len <= s.size();
        for (std::size_t k = 1; valid && k < len; ++k)
            valid = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
        if (!valid) {
            out += '?';
            ++i;
        } else {
            if (!(len == 1 && (c < 0x20 || c == 0x7F)))
                out.append(s.substr(i, len));
            i += len;
        }
        if (chars + 1 == 40 && i < s.size())
            out += "...";
    }
    return out + "\"";
}

// Lines without '\r' and without ANSI colour sequences (torchtitan colours its log).
std::vector<std::string> splitLines(std::string_view text) {
    std::vector<std::string> lines;
    std::string cur;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            lines.push_back(std::move(cur));
            cur.clear();
        } else if (c == '\x1b') {
            // ESC [ ... letter
            std::size_t j = i + 1;
            if (j < text.size() && text[j] == '[') {
                ++j;
                while (j < text.size() && !std::isalpha(static_cast<unsigned char>(text[j])))
                    ++j;
            }
            i = std::min(j, text.size() - 1);
        } else if (c != '\r') {
            cur += c;
        }
    }
    if (!cur.empty())
        lines.push_back(std::move(cur));
    return lines;
}

// "iteration      10/    1000 |" -> 10
std::optional<long long> megatronIteration(std::string_view line) {
    std::size_t from = 0;
    while (true) {
        const auto pos = line.find("iteration", from);
        if (pos == std::string_view::npos)
            return std::nullopt;
        std::size_t used = 0;
        const auto rest = line.substr(pos + 9);
        if (auto n = integerAt(rest, &used)) {
            std::size_t k = used;
            while (k < rest.size() && rest[k] == ' ')
                ++k;
            if (k < rest.size() && rest[k] == '/')
                return n;
        }
        from = pos + 9;
    }
}

bool isMegatronLine(std::string_view line) {
    return line.find("elapsed time per iteration") != std::string_view::npos ||
           megatronIteration(line).has_value();
}

// "step: 10" but not "validate step: 10"
std::optional<long long> titanStep(std::string_view line, bool* present) {
    std::size_t from = 0;
    *present = false;
    while (true) {
        const auto pos = line.find("step:", from);
        if (pos == std::string_view::npos)
            return std::nullopt;
        const bool validation = pos >= 9 && line.substr(pos - 9, 9) == "validate ";
        if (!validation) {
            *present = true;
            return integerAt(line.substr(pos + 5));
        }
        from = pos + 5;
    }
}

bool isTitanLine(std::string_view line) {
    bool present = false;
    titanStep(line, &present);
    return present &&
           (line.find("tps:") != std::string_view::npos || line.find("wps:") != std::string_view::npos ||
            line.find("loss:") != std::string_view::npos);
}

void setCoverage(RunLog& log) {
    auto& s = log.samples;
    bool warnedBack = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i == 0) {
            s[i].stepsCovered = 1;
            if (s.size() > 1) {
                const long long interval = s[1].step - s[0].step;
                if (interval > 1 && s[0].step >= interval)
                    s[i].stepsCovered = interval;
            }
            continue;
        }
        const long long d = s[i].step - s[i - 1].step;
        if (d <= 0 && !warnedBack) {
            log.warnings.push_back(
                {s[i].line, "the step number goes back from " + std::to_string(s[i - 1].step) + " to " +
                                std::to_string(s[i].step) +
                                ": the log holds a restarted run; analyse one run at a time"});
            warnedBack = true;
        }
        s[i].stepsCovered = d > 0 ? d : 1;
    }
}

// "  tensor_model_parallel_size ...... 8" (Megatron-LM's argument dump) -> 8
std::optional<long long> argumentValue(std::string_view line, std::string_view name) {
    const auto t = trim(line);
    if (!t.starts_with(name) || t.size() == name.size() || t[name.size()] != ' ')
        return std::nullopt;
    auto rest = t.substr(name.size());
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '.'))
        rest.remove_prefix(1);
    std::size_t used = 0;
    const auto v = integerAt(rest, &used);
    return v && used == rest.size() ? v : std::nullopt;
}

// The layout Megatron-LM states at start: "using world size: 64, ..., tensor-model-parallel size: 8, ..."
// and the argument dump.
void readMegatronLayout(std::string_view line, LoggedLayout& layout) {
    bool present = false;
    if (line.find("using world size:") != std::string_view::npos) {
        if (auto v = valueAfter(line, "using world size:", &present); v && *v > 0 && *v < 1e9)
            layout.worldSize = static_cast<long long>(*v);
        if (auto v = valueAfter(line, "tensor-model-parallel size:", &present); v && *v > 0 && *v < 1e6)
            layout.tp = static_cast<int>(*v);
        if (auto v = valueAfter(line, "pipeline-model-parallel size:", &present); v && *v > 0 && *v < 1e6)
            layout.pp = static_cast<int>(*v);
        return;
    }
    const auto positive = [](std::optional<long long> v) { return v && *v > 0 && *v < 1'000'000'000LL; };
    if (auto v = argumentValue(line, "world_size"); positive(v))
        layout.worldSize = *v;
    else if (auto tp = argumentValue(line, "tensor_model_parallel_size"); positive(tp))
        layout.tp = static_cast<int>(*tp);
    else if (auto pp = argumentValue(line, "pipeline_model_parallel_size"); positive(pp))
        layout.pp = static_cast<int>(*pp);
    else if (auto gb = argumentValue(line, "global_batch_size"); positive(gb))
        layout.globalBatch = *gb;
}

// Keeps the memory line with the highest max reserved (max allocated when reserved is not logged).
void keepPeakMemory(LoggedMemory& memory, double maxAllocated, double maxReserved, int rank, int line) {
    const double peak = std::isfinite(maxReserved) ? maxReserved : maxAllocated;
    const double held =
        std::isfinite(memory.maxReservedBytes) ? memory.maxReservedBytes : memory.maxAllocatedBytes;
    if (!(peak > 0) || (std::isfinite(held) && held >= peak))
        return;
    memory = LoggedMemory{maxAllocated, maxReserved, rank, line};
}

// "[Rank 0] (after 10 iterations) memory (MB) | allocated: ... | max allocated: Y | reserved: ... | max
// reserved: W" (mebibytes: Megatron-LM divides by 1024 x 1024).
void readMegatronMemory(std::string_view line, int lineNo, LoggedMemory& memory) {
    if (line.find("memory (MB)") == std::string_view::npos)
        return;
    bool present = false;
    constexpr double kMiB = 1024.0 * 1024.0;
    const auto allocated = valueAfter(line, "max allocated:", &present);
    const auto reserved = valueAfter(line, "max reserved:", &present);
    const auto rank = valueAfter(line, "[Rank ", &present);
    keepPeakMemory(memory, allocated && *allocated > 0 ? *allocated * kMiB : kNoValue,
                   reserved && *reserved > 0 ? *reserved * kMiB : kNoValue,
                   rank && *rank >= 0 && *rank < 1e9 ? static_cast<int>(*rank) : -1, lineNo);
}

void parseMegatron(const std::vector<std::string>& lines, RunLog& log) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        const int lineNo = static_cast<int>(i) + 1;
        readMegatronLayout(line, log.layout);
        readMegatronMemory(line, lineNo, log.memory);
        const auto iteration = megatronIteration(line);
        bool hasElapsed = false;
        const auto elapsed = valueAfter(line, "elapsed time per iteration (ms):", &hasElapsed);
        if (!iteration) {
            if (hasElapsed)
                log.warnings.push_back({lineNo, "a step time without an \"iteration N/ M\" field: skipped"});
            continue;
        }
        if (!hasElapsed) {
            log.warnings.push_back(
                {lineNo,
                 "iteration " + std::to_string(*iteration) +
                     " has no \"elapsed time per iteration (ms)\" field (a truncated line?): skipped"});
            continue;
        }
        if (!elapsed || !(*elapsed > 0)) {
            log.warnings.push_back(
                {lineNo, "iteration " + std::to_string(*iteration) +
                             ": the elapsed time per iteration is not a positive number: skipped"});
            continue;
        }
        StepSample s;
        s.step = *iteration;
        s.stepSeconds = *elapsed / 1e3;
        s.line = lineNo;
        bool present = false;
        if (auto gb = valueAfter(line, "global batch size:", &present); gb && *gb > 0 && *gb < 9.0e15)
            s.globalBatch = static_cast<long long>(*gb);
        if (auto tf = valueAfter(line, "throughput per GPU (TFLOP/s/GPU):", &present); tf && *tf > 0)
            s.loggedTflopsPerGpu = *tf;
        log.samples.push_back(s);
    }
}

void parseTitan(const std::vector<std::string>& lines, RunLog& log) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        const int lineNo = static_cast<int>(i) + 1;
        bool present = false;
        if (auto gb = valueAfter(line, "global batch size", &present); gb && *gb > 0 && *gb < 9.0e15)
            log.layout.globalBatch = static_cast<long long>(*gb);
        // "memory: 48.20GiB(60.94%)": torchtitan's max reserved on rank 0, in GiB.
        if (auto mem = valueAfter(line, "memory:", &present); mem && *mem > 0)
            keepPeakMemory(log.memory, kNoValue, *mem * 1024.0 * 1024.0 * 1024.0, 0, lineNo);
        const auto step = titanStep(line, &present);
        if (!present)
            continue;
        if (!step) {
            log.warnings.push_back({lineNo, "\"step:\" without a step number: skipped"});
            continue;
        }
        bool hasTps = false, hasWps = false;
        auto tps = valueAfter(line, "tps:", &hasTps, true);
        if (!hasTps)
            tps = valueAfter(line, "wps:", &hasWps, true);
        if (!hasTps && !hasWps) {
            if (line.find("loss:") != std::string_view::npos)
                log.warnings.push_back(
                    {lineNo, "step " + std::to_string(*step) +
                                 " has no \"tps:\" throughput (a truncated line?): skipped"});
            continue;
        }
        if (!tps || !(*tps > 0)) {
            log.warnings.push_back({lineNo, "step " + std::to_string(*step) +
                                                ": the throughput is not a positive number: skipped"});
            continue;
        }
        StepSample s;
        s.step = *step;
        s.tokensPerSecondPerGpu = *tps;
        s.line = lineNo;
        bool p2 = false;
        if (auto mfu = valueAfter(line, "mfu:", &p2); mfu && *mfu >= 0)
            s.loggedMfu = *mfu / 100.0;
        if (auto tf = valueAfter(line, "tflops:", &p2, true); tf && *tf > 0)
            s.loggedTflopsPerGpu = *tf;
        log.samples.push_back(s);
    }
}

char detectDelimiter(std::string_view line) {
    if (line.find('\t') != std::string_view::npos)
        return '\t';
    if (line.find(';') != std::string_view::npos)
        return ';';
    if (line.find(',') != std::string_view::npos)
        return ',';
    return ' ';
}

std::vector<std::string> splitFields(std::string_view line, char delim) {
    std::vector<std::string> out;
    if (delim == ' ') {
        std::size_t i = 0;
        while (i < line.size()) {
            while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])))
                ++i;
            std::size_t j = i;
            while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j])))
                ++j;
            if (j > i)
                out.emplace_back(line.substr(i, j - i));
            i = j;
        }
        return out;
    }
    std::size_t start = 0;
    while (true) {
        const auto pos = line.find(delim, start);
        std::string_view f =
            trim(line.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
        if (f.size() >= 2 && f.front() == '"' && f.back() == '"')
            f = f.substr(1, f.size() - 2);
        out.emplace_back(f);
        if (pos == std::string_view::npos)
            break;
        start = pos + 1;
    }
    return out;
}

bool isComment(std::string_view line) {
    const auto t = trim(line);
    return t.empty() || t.front() == '#';
}

std::optional<double> wholeNumber(std::string_view field) {
    std::size_t used = 0;
    const auto t = trim(field);
    auto v = numberAt(t, &used);
    if (!v || used != t.size())
        return std::nullopt;
    return v;
}

// A pasted token: "4.81", "4812ms", "4.8s", "4,812" is not (commas separate numbers).
struct Token {
    std::optional<double> seconds; // with an explicit unit
    std::optional<double> bare;    // without
};
std::optional<Token> readToken(std::string_view tok) {
    std::string t = asciiLower(trim(tok));
    Token out;
    double scale = 0;
    if (t.ends_with("ms")) {
        scale = 1e-3;
        t.resize(t.size() - 2);
    } else if (t.ends_with("s") && !t.ends_with("es")) {
        scale = 1.0;
        t.resize(t.size() - 1);
    }
    auto v = wholeNumber(t);
    if (!v)
        return std::nullopt;
    if (scale > 0)
        out.seconds = *v * scale;
    else
        out.bare = *v;
    return out;
}

enum class Column { None, Step, Seconds, Millis, Bare, Tps, Mfu };

Column classifyHeader(const std::string& name) {
    const std::string h = asciiLower(trim(name));
    if (h == "step" || h == "steps" || h == "iteration" || h == "iter" || h == "global_step" ||
        h == "_step" || h == "iterations")
        return Column::Step;
    if (h.find("tps") != std::string::npos || h.find("tokens_per_s") != std::string::npos ||
        h.find("tokens/s") != std::string::npos || h.find("throughput") != std::string::npos)
        return Column::Tps;
    if (h.find("mfu") != std::string::npos)
        return Column::Mfu;
    const bool timeLike = h.find("time") != std::string::npos || h.find("elapsed") != std::string::npos ||
                          h.find("duration") != std::string::npos || h.find("sec") != std::string::npos ||
                          h == "s" || h == "ms" || h.find("latency") != std::string::npos;
    if (!timeLike)
        return Column::None;
    if (h == "ms" || h.find("(ms)") != std::string::npos || h.find("_ms") != std::string::npos ||
        h.find(" ms") != std::string::npos || h.find("milli") != std::string::npos ||
        h.find("[ms]") != std::string::npos)
        return Column::Millis;
    if (h == "s" || h.find("(s)") != std::string::npos || h.ends_with("_s") ||
        h.find("sec") != std::string::npos || h.find("[s]") != std::string::npos)
        return Column::Seconds;
    return Column::Bare;
}

void applyUnit(RunLog& log, const std::vector<std::size_t>& bareIdx, NumberUnit unit) {
    if (bareIdx.empty())
        return;
    std::vector<double> vals;
    for (auto i : bareIdx)
        vals.push_back(log.samples[i].stepSeconds);
    const double med = median(vals, kNoValue);
    bool millis = unit == NumberUnit::Milliseconds;
    if (unit == NumberUnit::Auto) {
        millis = med > 100;
        log.unitNote = millis ? "numbers without a unit read as milliseconds (their median, " +
                                    std::to_string(static_cast<long long>(std::min(med, 9.0e15))) +
                                    ", is above 100)"
                              : "numbers without a unit read as seconds (their median is at most 100)";
    }
    if (millis)
        for (auto i : bareIdx)
            log.samples[i].stepSeconds /= 1e3;
}

// The CSV's columns: named by a header line, or (bare rows of numbers) a step time, after a step number
// when there are two or more fields.
struct CsvColumns {
    char delimiter = ',';
    bool header = false;
    std::vector<std::string> names; // the header's fields, or the first row's
    std::vector<Column> kinds;
    std::size_t firstRow = 0; // index of the first line of data
};

// Only the first column of each kind is read.
void keepFirstOfEachKind(std::vector<Column>& cols) {
    bool seenTime = false, seenStep = false, seenTps = false, seenMfu = false;
    for (auto& c : cols) {
        bool& seen = (c == Column::Step)  ? seenStep
                     : (c == Column::Tps) ? seenTps
                     : (c == Column::Mfu) ? seenMfu
                                          : seenTime;
        if (c == Column::None)
            continue;
        if (seen)
            c = Column::None;
        seen = true;
    }
}

std::expected<CsvColumns, InputError> readCsvColumns(const std::vector<std::string>& lines) {
    CsvColumns out;
    std::size_t first = 0;
    while (first < lines.size() && isComment(lines[first]))
        ++first;
    if (first == lines.size())
        return std::unexpected(InputError{"", "the input is empty", 0, 0});
    out.delimiter = detectDelimiter(lines[first]);
    out.names = splitFields(lines[first], out.delimiter);
    out.header = std::any_of(out.names.begin(), out.names.end(),
                             [](const std::string& f) { return !f.empty() && !wholeNumber(f); });
    out.firstRow = first;
    if (!out.header) {
        out.kinds = out.names.size() == 1 ? std::vector<Column>{Column::Bare}
                                          : std::vector<Column>{Column::Step, Column::Bare};
        out.kinds.resize(out.names.size(), Column::None);
        return out;
    }
    for (const auto& f : out.names)
        out.kinds.push_back(classifyHeader(f));
    keepFirstOfEachKind(out.kinds);
    const bool hasTime = std::any_of(out.kinds.begin(), out.kinds.end(), [](Column c) {
        return c == Column::Seconds || c == Column::Millis || c == Column::Bare || c == Column::Tps;
    });
    if (!hasTime) {
        std::string names;
        for (const auto& f : out.names)
            names += (names.empty() ? "" : ", ") + quoted(f);
        return std::unexpected(
            InputError{"",
                       "the CSV has no step-time column: name one like step_time_s, step_time_ms, "
                       "elapsed_ms, time or seconds (or tps for tokens/s per GPU); got " +
                           names,
                       static_cast<int>(first) + 1, 1});
    }
    out.firstRow = first + 1;
    return out;
}

// One row's fields into the sample; false (with a warning) when a field cannot be read. `bare`: the step
// time is a number without a unit.
bool readCsvFields(const CsvColumns& cols, const std::vector<std::string>& fields, StepSample& s, bool& bare,
                   RunLog& log) {
    for (std::size_t c = 0; c < cols.kinds.size(); ++c) {
        if (cols.kinds[c] == Column::None)
            continue;
        const auto v = wholeNumber(fields[c]);
        const std::string colName =
            cols.header ? "column " + quoted(cols.names[c]) : "field " + std::to_string(c + 1);
        if (!v) {
            log.warnings.push_back(
                {s.line, colName + ": " + quoted(fields[c]) + " is not a number: skipped"});
            return false;
        }
        switch (cols.kinds[c]) {
        case Column::Step:
            if (*v < 0 || *v != std::floor(*v) || *v > 9.0e15) {
                log.warnings.push_back(
                    {s.line, colName + ": " + quoted(fields[c]) + " is not a step number: skipped"});
                return false;
            }
            s.step = static_cast<long long>(*v);
            break;
        case Column::Seconds:
            s.stepSeconds = *v;
            break;
        case Column::Millis:
            s.stepSeconds = *v / 1e3;
            break;
        case Column::Bare:
            s.stepSeconds = *v;
            bare = true;
            break;
        case Column::Tps:
            s.tokensPerSecondPerGpu = *v;
            break;
        case Column::Mfu:
            s.loggedMfu = *v > 1.0 ? *v / 100.0 : *v;
            break;
        case Column::None:
            break;
        }
    }
    return true;
}

std::optional<InputError> parseCsv(const std::vector<std::string>& lines, RunLog& log, NumberUnit unit) {
    const auto cols = readCsvColumns(lines);
    if (!cols)
        return cols.error();
    std::vector<std::size_t> bareIdx;
    long long autoStep = 0;
    for (std::size_t i = cols->firstRow; i < lines.size(); ++i) {
        if (isComment(lines[i]))
            continue;
        const int lineNo = static_cast<int>(i) + 1;
        const auto fields = splitFields(lines[i], cols->delimiter);
        if (fields.size() != cols->kinds.size()) {
            log.warnings.push_back({lineNo, "expected " + std::to_string(cols->kinds.size()) +
                                                " fields, got " + std::to_string(fields.size()) +
                                                ": skipped"});
            continue;
        }
        StepSample s;
        s.line = lineNo;
        s.step = ++autoStep;
        bool bare = false;
        if (!readCsvFields(*cols, fields, s, bare, log))
            continue;
        const bool hasTime = std::isfinite(s.stepSeconds);
        if ((hasTime && !(s.stepSeconds > 0)) || (!hasTime && !(s.tokensPerSecondPerGpu > 0))) {
            log.warnings.push_back({lineNo, "not a positive step time or throughput: skipped"});
            continue;
        }
        if (bare)
            bareIdx.push_back(log.samples.size());
        log.samples.push_back(s);
    }
    applyUnit(log, bareIdx, unit);
    return std::nullopt;
}

void parseNumbers(const std::vector<std::string>& lines, RunLog& log, NumberUnit unit) {
    std::vector<std::size_t> bareIdx;
    long long step = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (isComment(lines[i]))
            continue;
        const int lineNo = static_cast<int>(i) + 1;
        std::string line = lines[i];
        for (char& c : line)
            if (c == ',' || c == ';' || c == '\t')
                c = ' ';
        for (const auto& tok : splitFields(line, ' ')) {
            const auto t = readToken(tok);
            if (!t) {
                log.warnings.push_back({lineNo, quoted(tok) + " is not a step time: skipped"});
                continue;
            }
            StepSample s;
            s.line = lineNo;
            s.step = ++step;
            s.stepSeconds = t->seconds ? *t->seconds : *t->bare;
            if (!(s.stepSeconds > 0)) {
                log.warnings.push_back({lineNo, quoted(tok) + " is not a positive step time: skipped"});
                continue;
            }
            if (!t->seconds)
                bareIdx.push_back(log.samples.size());
            log.samples.push_back(s);
        }
    }
    applyUnit(log, bareIdx, unit);
}

RunLogFormat detectFormat(const std::vector<std::string>& lines) {
    int megatron = 0, titan = 0;
    for (const auto& l : lines) {
        if (isMegatronLine(l))
            ++megatron;
        else if (isTitanLine(l))
            ++titan;
    }
    if (megatron > 0 || titan > 0)
        return megatron >= titan ? RunLogFormat::Megatron : RunLogFormat::Torchtitan;
    std::size_t first = 0;
    while (first < lines.size() && isComment(lines[first]))
        ++first;
    if (first == lines.size())
        return RunLogFormat::Numbers;
    const char delim = detectDelimiter(lines[first]);
    const auto fields = splitFields(lines[first], delim);
    bool header = false;
    for (const auto& f : fields)
        if (!f.empty() && !readToken(f))
            header = true;
    if (header && delim != ' ')
        return RunLogFormat::Csv;
    if (header)
        return RunLogFormat::Numbers; // let the number reader report the odd tokens
    // All numbers: rows of the same width (2 or more, on 2 or more lines) are a CSV.
    std::size_t rows = 0;
    bool same = fields.size() >= 2 && delim != ' ';
    for (std::size_t i = first; i < lines.size() && same; ++i) {
        if (isComment(lines[i]))
            continue;
        ++rows;
        same = splitFields(lines[i], delim).size() == fields.size();
    }
    return same && rows >= 2 ? RunLogFormat::Csv : RunLogFormat::Numbers;
}

} // namespace

std::string_view toString(RunLogFormat f) {
    switch (f) {
    case RunLogFormat::Auto:
        return "auto";
    case RunLogFormat::Csv:
        return "csv";
    case RunLogFormat::Megatron:
        return "megatron";
    case RunLogFormat::Torchtitan:
        return "torchtitan";
    case RunLogFormat::Numbers:
        return "numbers";
    }
    return "auto";
}

std::string_view displayName(RunLogFormat f) {
    switch (f) {
    case RunLogFormat::Auto:
        return "automatic";
    case RunLogFormat::Csv:
        return "CSV";
    case RunLogFormat::Megatron:
        return "Megatron-LM log";
    case RunLogFormat::Torchtitan:
        return "torchtitan log";
    case RunLogFormat::Numbers:
        return "numbers";
    }
    return "automatic";
}

std::optional<RunLogFormat> parseRunLogFormat(std::string_view s) {
    const std::string l = asciiLower(s);
    if (l == "auto")
        return RunLogFormat::Auto;
    if (l == "csv")
        return RunLogFormat::Csv;
    if (l == "megatron" || l == "megatron-lm")
        return RunLogFormat::Megatron;
    if (l == "torchtitan" || l == "titan")
        return RunLogFormat::Torchtitan;
    if (l == "numbers" || l == "pasted")
        return RunLogFormat::Numbers;
    return std::nullopt;
}

std::expected<RunLog, InputError> parseRunLog(std::string_view text, const RunLogOptions& options) {
    const auto lines = splitLines(text);
    RunLog log;
    log.lines = static_cast<int>(lines.size());
    if (std::all_of(lines.begin(), lines.end(), [](const std::string& l) { return trim(l).empty(); }))
        return std::unexpected(InputError{"", "the input is empty: no step times", 0, 0});
    log.format = options.format == RunLogFormat::Auto ? detectFormat(lines) : options.format;
    switch (log.format) {
    case RunLogFormat::Megatron:
        parseMegatron(lines, log);
        break;
    case RunLogFormat::Torchtitan:
        parseTitan(lines, log);
        break;
    case RunLogFormat::Csv:
        if (auto err = parseCsv(lines, log, options.unit))
            return std::unexpected(*err);
        break;
    case RunLogFormat::Numbers:
    case RunLogFormat::Auto:
        parseNumbers(lines, log, options.unit);
        break;
    }
    if (log.samples.empty()) {
        std::string reason = "no step times found";
        switch (log.format) {
        case RunLogFormat::Megatron:
            reason +=
                ": no readable Megatron-LM \"iteration N/ M | ... elapsed time per iteration (ms): X\" lines";
            break;
        case RunLogFormat::Torchtitan:
            reason += ": no readable torchtitan \"step: N ... tps: X\" lines";
            break;
        case RunLogFormat::Csv:
            reason += ": no readable CSV rows";
            break;
        default:
            reason +=
                ": expected Megatron-LM or torchtitan log lines, a CSV with a step-time column, or numbers";
        }
        if (!log.warnings.empty())
            reason += " (first problem, line " + std::to_string(log.warnings.front().line) + ": " +
                      log.warnings.front().message + ")";
        return std::unexpected(InputError{"", reason, 0, 0});
    }
    setCoverage(log);
    return log;
}

std::expected<RunLog, InputError> loadRunLog(const std::string& path, const RunLogOptions& options) {
    auto text = readTextFile(path);
    if (!text)
        return std::unexpected(InputError{"", text.error(), 0, 0});
    return parseRunLog(*text, options);
}

} // namespace lp::core

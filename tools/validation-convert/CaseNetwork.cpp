// The inter-node network a validation case's notes state ("Network: RoCE, 400 Gbps per GPU", "an H100 cluster
// with 96 GPUs and 800Gbps inter-node interconnect", "4x OmniPath 100Gbps per node"). The case format has no
// network field; a case planned on its GPU's usual card (docs/estimation.md section 12) when its source says
// the cluster had a slower or faster one would be planned on hardware it did not run on. Nor does naming a
// cloud machine ("16x A3 (h100-80gb-8)") leave its network unstated: its vendor documents it, and
// resources/presets/clusters.json holds what they document.
#include "tools/validation-convert/CaseNetwork.h"

#include "core/io/Presets.h"
#include "core/model/Enums.h"
#include "core/util/Text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <string_view>

namespace lp::tools::prose {

using namespace lp::core;

namespace {

bool digit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

bool contains(std::string_view text, std::string_view word) {
    return text.find(word) != std::string_view::npos;
}

// A bit rate's unit right at `at` in the original text: Gb/s, Gbps, Gbit/s, Tb/s, Tbps, Tbit/s. Returns bits
// per second per unit, 0 when there is none, and the unit's length in `length`.
double bitRateUnit(std::string_view text, std::size_t at, std::size_t& length) {
    if (at >= text.size())
        return 0;
    const char prefix = static_cast<char>(std::tolower(static_cast<unsigned char>(text[at])));
    const double scale = prefix == 'g' ? 1e9 : prefix == 't' ? 1e12 : 0;
    if (scale == 0)
        return 0;
    // A lower-case b: bits ("GB/s" is bytes, which the notes use for NVLink and bus bandwidth).
    const std::string_view rest = text.substr(at + 1);
    for (std::string_view unit : {"b/s", "bps", "bit/s", "bits/s"}) {
        if (rest.substr(0, unit.size()) == unit) {
            length = 1 + unit.size();
            return scale;
        }
    }
    return 0;
}

// The count of links in front of the rate at `at`: "4x OmniPath 100Gbps", "8 x 400 Gb/s", "eight 400 Gb/s
// cards"; 1 when there is none.
int linkCount(std::string_view lower, std::size_t at) {
    std::size_t i = at;
    while (i > 0 && lower[i - 1] == ' ')
        --i;
    std::size_t w = i;
    while (w > 0 && std::isalpha(static_cast<unsigned char>(lower[w - 1])))
        --w;
    static constexpr std::array<std::string_view, 16> kWords = {
        "one",  "two", "three",  "four",   "five",     "six",      "seven",   "eight",
        "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen"};
    for (std::size_t k = 0; k < kWords.size(); ++k)
        if (lower.substr(w, i - w) == kWords[k])
            return static_cast<int>(k) + 1;
    // Step back over at most two words (a link's name) to an "N x" or "Nx".
    for (int words = 0; words <= 2 && i > 0; ++words) {
        while (i > 0 && lower[i - 1] == ' ')
            --i;
        if (i > 0 && lower[i - 1] == 'x') {
            std::size_t j = i - 1;
            while (j > 0 && lower[j - 1] == ' ')
                --j;
            std::size_t start = j;
            while (start > 0 && digit(lower[start - 1]))
                --start;
            if (start < j && j - start <= 2 &&
                (start == 0 || !std::isalnum(static_cast<unsigned char>(lower[start - 1]))))
                return std::max(1, std::stoi(std::string(lower.substr(start, j - start))));
            return 1;
        }
        std::size_t v = i;
        while (v > 0 && (std::isalpha(static_cast<unsigned char>(lower[v - 1])) || lower[v - 1] == '-'))
            --v;
        if (v == i)
            break;
        i = v;
    }
    return 1;
}

// The clause around a position: up to `span` characters either side, cut at sentence ends.
std::string_view clause(std::string_view lower, std::size_t from, std::size_t to, std::size_t span) {
    std::size_t begin = from > span ? from - span : 0;
    for (std::size_t k = from; k > begin; --k) {
        if (lower[k - 1] == ';' || (lower[k - 1] == '.' && (k >= lower.size() || !digit(lower[k])))) {
            begin = k;
            break;
        }
    }
    std::size_t end = std::min(lower.size(), to + span);
    for (std::size_t k = to; k < end; ++k) {
        if (lower[k] == ';' || lower[k] == '(' ||
            (lower[k] == '.' && (k + 1 >= lower.size() || !digit(lower[k + 1])))) {
            end = k;
            break;
        }
    }
    return lower.substr(begin, end - begin);
}

// The GPU type named last in the 60 characters before `at` ("an H100 cluster with 96 GPUs and "), or "".
std::string_view nearestGpuFamily(std::string_view lower, std::size_t at) {
    const std::size_t lead = at > 60 ? at - 60 : 0;
    const std::string_view before = lower.substr(lead, at - lead);
    std::string_view nearest;
    std::size_t where = 0;
    for (std::string_view name : {"a100", "h100", "h200", "h800", "b200", "gb200", "gb300", "b300"}) {
        const std::size_t k = before.rfind(name);
        if (k != std::string_view::npos && (nearest.empty() || k + name.size() > where)) {
            nearest = name;
            where = k + name.size();
        }
    }
    return nearest;
}

} // namespace

std::optional<StatedNetwork> statedNetwork(std::string_view text, int gpusPerNode,
                                           std::string_view gpuFamily) {
    const std::string lowered = asciiLower(text);
    const std::string_view lower = lowered;
    const std::string family = asciiLower(gpuFamily);
    std::optional<StatedNetwork> first;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!digit(text[i]) || (i > 0 && (digit(text[i - 1]) || text[i - 1] == '.')))
            continue;
        std::size_t end = i;
        while (end < text.size() &&
               (digit(text[end]) || (text[end] == '.' && end + 1 < text.size() && digit(text[end + 1]))))
            ++end;
        std::size_t unitAt = end;
        while (unitAt < text.size() && text[unitAt] == ' ')
            ++unitAt;
        std::size_t unitLength = 0;
        const double scale = bitRateUnit(text, unitAt, unitLength);
        if (scale == 0)
            continue;
        const std::size_t unitEnd = unitAt + unitLength;
        const std::string_view around = clause(lower, i, unitEnd, 80);
        bool network = false;
        for (std::string_view word :
             {"network", "interconnect", "infiniband", "roce", "ethernet", "omnipath", "omni-path", "efa",
              "nic", "rdma", "connectx", "inter-node", "internode", "node-node", "node-to-node", "tcpx",
              "per node", "per gpu", "card"})
            network = network || contains(around, word);
        // A figure another tool assumed ("vTrain's config models the inter-node network as 800 Gbps per
        // node") is that tool's choice, not a statement of the cluster the run was measured on.
        if (!network || contains(around, "models the") || contains(around, "modeled as") ||
            contains(around, "modelled as") || contains(around, "simulat"))
            continue;
        // A figure of the NVLink fabric itself ("NVLink 5 at 1800 Gb/s per GPU") is not the network's.
        std::size_t lead = i > 30 ? i - 30 : 0;
        if (const std::size_t cut = lower.substr(lead, i - lead).find_last_of(",;:");
            cut != std::string_view::npos)
            lead += cut + 1;
        const std::string_view qualifier = lower.substr(lead, i - lead);
        if (contains(qualifier, "nvlink") || contains(qualifier, "nvswitch") || contains(qualifier, "nvl"))
            continue;
        const int links = linkCount(lower, i);
        // strtod, not stod: a figure of a thousand digits is out of range, not an exception.
        const double rate =
            std::strtod(std::string(text.substr(i, end - i)).c_str(), nullptr) * scale * links;
        if (!(rate >= 1e9 && rate <= 1e14)) // 1 Gb/s to 100 Tb/s: anything else is not a network card or node
            continue;
        // What follows the figure, to the end of its clause: "per GPU", "cards per node".
        std::string_view after = lower.substr(unitEnd, 40);
        for (std::size_t k = 0; k < after.size(); ++k) {
            if (after[k] == ';' || after[k] == ',' || after[k] == '(' || after[k] == '.') {
                after = after.substr(0, k);
                break;
            }
        }
        StatedNetwork s;
        s.bitsPerSecond = rate;
        if (links == 1 &&
            (contains(after, "per gpu") || contains(after, "/gpu") || contains(after, "per nic") ||
             contains(after, "per card") || contains(after, "per hca") || contains(after, "each gpu")))
            s.perNode = false;
        else if (links > 1 || contains(around, "per node") || contains(around, "/node") ||
                 contains(around, "inter-node") || contains(around, "internode") ||
                 contains(around, "node-node") || contains(around, "node-to-node") ||
                 contains(around, "per host") || contains(around, "per server"))
            s.perNode = true;
        else
            // Unscoped: no single card runs faster than 800 Gb/s, so a larger figure is a node's.
            s.perNode = rate > 800e9;
        s.bytesPerSecondPerGpu = rate / 8 / (s.perNode ? std::max(1, gpusPerNode) : 1);
        s.statement = (links > 1 ? std::to_string(links) + " x " : std::string()) +
                      std::string(text.substr(i, unitEnd - i));
        // A note that describes several clusters ("an A100 cluster with ... 400Gbps ..., and an H100
        // cluster with ... 800Gbps"): the figure whose clause names the case's GPU, else the first.
        if (!family.empty() && nearestGpuFamily(lower, i) == family)
            return s;
        if (!first)
            first = s;
    }
    return first;
}

std::optional<NamedMachine> namedMachine(std::string_view text, std::string_view gpuFamily, int gpusPerNode) {
    const std::string lowered = asciiLower(text);
    const std::string_view lower = lowered;
    const std::string family = asciiLower(gpuFamily);
    auto boundary = [&](std::size_t k) {
        return k >= lower.size() || !std::isalnum(static_cast<unsigned char>(lower[k]));
    };
    std::optional<NamedMachine> first;
    std::size_t firstAt = std::string_view::npos;
    for (const ClusterPreset& p : clusterPresets()) {
        if (p.gpusPerNode != gpusPerNode || asciiLower(p.gpuId.substr(0, p.gpuId.find('-'))) != family)
            continue;
        for (const std::string& name : p.machineNames) {
            const std::string wanted = asciiLower(name);
            for (std::size_t at = lower.find(wanted); at != std::string_view::npos && at < firstAt;
                 at = lower.find(wanted, at + 1)) {
                if ((at == 0 || boundary(at - 1)) && boundary(at + wanted.size())) {
                    first = NamedMachine{&p, std::string(text.substr(at, wanted.size()))};
                    firstAt = at;
                    break;
                }
            }
        }
    }
    return first;
}

} // namespace lp::tools::prose

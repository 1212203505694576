#include "core/search/FigureFormat.h"

#include "core/util/NumberFormat.h"

namespace lp::core {

FigureFormat plainFigureFormat() {
    FigureFormat f;
    f.bytes = [](double bytes) { return fmt::gib(bytes, 1); };
    f.percent = [](double fraction, int decimals) { return fmt::percent(fraction, decimals); };
    f.seconds = [](double seconds) { return fmt::duration(seconds); };
    f.number = [](double v, int decimals) { return fmt::fixed(v, decimals); };
    f.count = [](long long n) { return fmt::fixed(static_cast<double>(n), 0); };
    return f;
}

} // namespace lp::core

#include "core/io/InputError.h"

namespace lp::core {

std::string InputError::message() const {
    if (!path.empty())
        return path + ": " + reason;
    if (line > 0)
        return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + reason;
    return reason;
}

} // namespace lp::core

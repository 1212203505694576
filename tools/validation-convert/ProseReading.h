#pragma once
// How the @1 validation-case reader planned a case from its free text (source, notes and id): the settings
// @1 had no field for, read from words (docs/estimation.md, section 12, says what @2 reads instead). Applied
// over the case as core reads it without those words, in the @1 reader's order, so that the converter can
// state each setting as data.
#include "core/io/JsonReader.h"
#include "core/io/Presets.h"
#include "core/measured/Validation.h"

#include <string>
#include <vector>

namespace lp::tools {

struct ProseReading {
    core::ValidationCase planned;                 // the case as the @1 reader planned it
    std::vector<std::string> derived;             // what it derived, and from which words
    const core::ClusterPreset* machine = nullptr; // the machine whose network the notes named, if any
};

// `caseJson`: the @1 case object; `plain`: the same case as core reads it without its source, notes and id.
ProseReading readProse(const core::json::Json& caseJson, const core::ValidationCase& plain);

} // namespace lp::tools

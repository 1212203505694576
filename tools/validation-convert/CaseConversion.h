#pragma once
// Converts validation-case files from @1 (settings read from the source's and notes' words) to @2 (settings
// stated as data, with the scenario file's keys), and checks that the figures stay as they were.
#include "core/io/JsonReader.h"
#include "core/measured/Validation.h"

#include <string>
#include <vector>

namespace lp::tools {

// An @1 file's text as @2: every case with what the @1 reader derived from its words stated as keys (and
// said in its "derived" list); a case core cannot read is copied as it is. `problems`: cases whose @2
// reading would not plan as the @1 reader did (none, or the converter is wrong).
std::string convertFile(const std::string& text, std::vector<std::string>& problems);

// The cases of an @1 file as the @1 reader planned them, what it derived from their words listed with their
// adjustments; the unreadable ones are left out.
std::vector<core::ValidationCase> readAsVersion1(const std::string& text);

} // namespace lp::tools

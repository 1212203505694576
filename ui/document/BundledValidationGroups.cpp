#include "ui/document/BundledValidationGroups.h"

#include "ui/document/ValidationSets.h"

#include <QDir>

#include <chrono>
#include <future>
#include <string>

namespace lp::ui {
namespace {

// Every readable case of the files; a case that cannot be read is left out, as in the Validate tab.
std::vector<core::GroupSummary> groupsOf(const std::vector<std::string>& paths) {
    std::vector<core::ValidationCase> all;
    for (const std::string& path : paths) {
        core::InputErrors skipped;
        auto cases = core::loadValidationCases(path, &skipped);
        if (cases)
            all.insert(all.end(), std::make_move_iterator(cases->begin()),
                       std::make_move_iterator(cases->end()));
    }
    return all.empty() ? std::vector<core::GroupSummary>{} : core::runValidation(all, nullptr).groups;
}

// Started once: the files are found here (Qt, the calling thread), read and predicted in the worker (core
// only).
const std::shared_future<std::vector<core::GroupSummary>>& groupsFuture() {
    static const std::shared_future<std::vector<core::GroupSummary>> future = [] {
        std::vector<std::string> paths;
        for (const ValidationSet& set : bundledValidationSets())
            paths.push_back(QDir::toNativeSeparators(set.path).toStdString());
        return std::async(std::launch::async, [paths] { return groupsOf(paths); }).share();
    }();
    return future;
}

} // namespace

const std::vector<core::GroupSummary>* bundledValidationGroupsIfReady() {
    const auto& future = groupsFuture();
    return future.wait_for(std::chrono::seconds(0)) == std::future_status::ready ? &future.get() : nullptr;
}

const std::vector<core::GroupSummary>& bundledValidationGroups() {
    return groupsFuture().get();
}

} // namespace lp::ui

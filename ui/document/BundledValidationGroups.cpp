#include "ui/document/BundledValidationGroups.h"

#include "ui/document/ValidationSets.h"

#include <QDir>

#include <chrono>
#include <future>
#include <string>

namespace lp::ui {
namespace {

// Started once: the files are found here (Qt, the calling thread), read and predicted in the worker (core
// only).
const std::shared_future<core::TrustData>& trustFuture() {
    static const std::shared_future<core::TrustData> future = [] {
        std::vector<std::string> paths;
        for (const ValidationSet& set : bundledValidationSets())
            paths.push_back(QDir::toNativeSeparators(set.path).toStdString());
        return std::async(std::launch::async, [paths] { return core::validateForTrust(paths); }).share();
    }();
    return future;
}

} // namespace

const core::TrustData* bundledTrustDataIfReady() {
    const auto& future = trustFuture();
    return future.wait_for(std::chrono::seconds(0)) == std::future_status::ready ? &future.get() : nullptr;
}

const core::TrustData& bundledTrustData() {
    return trustFuture().get();
}

const std::vector<core::GroupSummary>* bundledValidationGroupsIfReady() {
    const core::TrustData* data = bundledTrustDataIfReady();
    return data ? &data->groups : nullptr;
}

const std::vector<core::GroupSummary>& bundledValidationGroups() {
    return bundledTrustData().groups;
}

std::optional<core::TrustBand> bundledTrustBand(const core::Scenario& s, const core::Plan& plan) {
    const core::TrustData* data = bundledTrustDataIfReady();
    return data ? std::optional(core::trustBand(s, plan, data->figures)) : std::nullopt;
}

} // namespace lp::ui

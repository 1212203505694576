#include "ui/document/ValidationTrust.h"

#include "ui/document/ValidationSets.h"
#include "ui/widgets/Format.h"

#include <QDir>

#include <chrono>
#include <cmath>
#include <future>
#include <string>

namespace lp::ui {

namespace {

// Started once: the files are found here (Qt, the calling thread), read and predicted in the worker (core
// only).
const std::shared_future<std::vector<core::GroupSummary>>& groupsFuture() {
    static const std::shared_future<std::vector<core::GroupSummary>> future = [] {
        std::vector<std::string> paths;
        for (const ValidationSet& set : bundledValidationSets())
            paths.push_back(QDir::toNativeSeparators(set.path).toStdString());
        return std::async(std::launch::async,
                          [paths] {
                              std::vector<core::ValidationCase> all;
                              for (const std::string& path : paths) {
                                  core::InputErrors skipped; // a case that cannot be read is left out, as in
                                                             // the Validate tab
                                  auto cases = core::loadValidationCases(path, &skipped);
                                  if (cases)
                                      all.insert(all.end(), std::make_move_iterator(cases->begin()),
                                                 std::make_move_iterator(cases->end()));
                              }
                              return all.empty() ? std::vector<core::GroupSummary>{}
                                                 : core::runValidation(all, nullptr).groups;
                          })
            .share();
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

const core::GroupSummary* validationGroupFor(const core::Scenario& s,
                                             const std::vector<core::GroupSummary>& groups) {
    const std::string style(core::toString(core::resolvedStyle(s.training)));
    const std::string precision(core::toString(s.training.precision));
    for (const core::GroupSummary& g : groups)
        if (g.gpu == s.cluster.gpu.id && g.style == style && g.precision == precision)
            return &g;
    return nullptr;
}

QString trustSentence(const core::Scenario& s, const std::vector<core::GroupSummary>& groups) {
    const QString what =
        QObject::tr("%1 in the %2 style in %3")
            .arg(QString::fromStdString(s.cluster.gpu.name),
                 QString::fromStdString(std::string(core::toString(core::resolvedStyle(s.training)))),
                 QString::fromStdString(std::string(core::toString(s.training.precision))));
    const core::GroupSummary* g = validationGroupFor(s, groups);
    if (!g || g->count < 3)
        return QObject::tr("No published run on %1 comes with the program to check this figure against; the "
                           "Validate tab shows how the planner did on others.")
            .arg(what);
    const double speed = g->medianSpeedError;
    return QObject::tr(
               "On the %1 published throughput figures of runs on %2 that come with the program, the planner "
               "was off by %3 at the median and planned them %4 %5 than they ran (Validate tab, \"By GPU, "
               "style and precision\").")
        .arg(formatNumber(g->count, 0), what, formatPercent(g->medianAbsError, 1),
             formatPercent(std::fabs(speed), 1), speed >= 0 ? QObject::tr("faster") : QObject::tr("slower"));
}

bool isThroughputFigure(const QString& key) {
    for (const char* k : {"mfu", "hfu", "mfu_6nd", "model_tflops_per_gpu", "time.step", "tokens_per_s",
                          "training_time", "gpu_hours"})
        if (key == QLatin1String(k))
            return true;
    return false;
}

} // namespace lp::ui

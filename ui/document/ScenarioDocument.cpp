#include "ui/document/ScenarioDocument.h"

#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "ui/document/EditCommand.h"
#include "ui/widgets/Format.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QSaveFile>
#include <QUndoStack>

namespace lp::ui {
namespace {
// Discards the commands above the current index: pushed obsolete, it is deleted, not added.
class DropRedoCommand : public QUndoCommand {
public:
    DropRedoCommand() { setObsolete(true); }
};
} // namespace

int mergeIdFor(EditKind kind, int field) {
    return static_cast<int>(kind) + field;
}

ScenarioDocument::ScenarioDocument(QObject* parent) : QObject(parent), m_undo(new QUndoStack(this)) {
    connect(m_undo, &QUndoStack::cleanChanged, this, [this] { emit fileStateChanged(); });
    m_scenario = core::defaultScenario();
    m_rules.nodeSize = m_scenario.cluster.gpusPerNode;
    updateProfile(true);
    recomputeSteps();
    reevaluate();
}

ScenarioDocument::~ScenarioDocument() = default;

QString ScenarioDocument::displayName() const {
    if (m_path.isEmpty()) // never saved: the scenario's own name, as its Name field shows it
        return QString::fromStdString(core::scenarioName(m_scenario));
    return QFileInfo(m_path).fileName();
}

bool ScenarioDocument::isModified() const {
    return m_dirtyWithoutFile || !m_undo->isClean();
}

void ScenarioDocument::edit(const core::Scenario& next, const QString& description, int mergeId,
                            bool interactive) {
    if (next == m_scenario)
        return;
    m_undo->push(new EditCommand(this, m_scenario, next, description, mergeId, interactive));
}

HistoryMark ScenarioDocument::historyMark() const {
    HistoryMark mark;
    mark.index = m_undo->index();
    mark.cleanIndex = m_undo->cleanIndex();
    mark.saves = m_saves;
    mark.dirtyWithoutFile = m_dirtyWithoutFile;
    for (int i = mark.index; i < m_undo->count(); ++i)
        if (const auto* step = dynamic_cast<const EditCommand*>(m_undo->command(i)))
            mark.redo.push_back({step->before(), step->after(), step->text()});
    return mark;
}

bool ScenarioDocument::rewindTo(const HistoryMark& mark) {
    if (mark.index < 0 || mark.index > m_undo->count())
        return false;
    endInteraction();
    m_undo->setIndex(mark.index);
    m_undo->push(new DropRedoCommand);
    for (const HistoryMark::Step& step : mark.redo)
        m_undo->push(new EditCommand(this, step.before, step.after, step.text, -1, false));
    const bool savedSince = mark.saves != m_saves;
    if (!savedSince && mark.cleanIndex >= 0 && mark.cleanIndex <= m_undo->count()) {
        m_undo->setIndex(mark.cleanIndex);
        m_undo->setClean();
    }
    m_undo->setIndex(mark.index);
    // QUndoStack::push() drops the redo steps for an obsolete command without a signal, and setIndex() to
    // the index it already has sends none: the Edit menu would still offer to redo the tour's last step.
    emit m_undo->canRedoChanged(m_undo->canRedo());
    emit m_undo->redoTextChanged(m_undo->redoText());
    if (!savedSince)
        m_dirtyWithoutFile = mark.dirtyWithoutFile;
    emit fileStateChanged();
    return true;
}

void ScenarioDocument::setLayoutValue(core::LayoutAxis axis, int value, bool interactive) {
    if (core::layoutValue(m_scenario.layout, axis) == value)
        return;
    const core::Scenario next = core::withLayoutValue(m_scenario, axis, value, m_rules);
    edit(next, tr("Set %1 to %2").arg(qs(core::axisName(axis))).arg(value),
         mergeIdFor(EditKind::Layout, static_cast<int>(axis)), interactive);
}

void ScenarioDocument::editCluster(const core::ClusterSpec& cluster, const QString& description,
                                   int mergeId) {
    core::Scenario next = m_scenario;
    const bool nodeShapeChanged = cluster.gpusPerNode != m_scenario.cluster.gpusPerNode;
    next.cluster = cluster;
    if (nodeShapeChanged)
        m_rules.nodeSize = cluster.gpusPerNode;
    edit(core::withClusterRebalanced(next, m_rules), description, mergeId);
}

void ScenarioDocument::endInteraction() {
    const int top = m_undo->index() - 1;
    if (top < 0)
        return;
    if (auto* cmd = dynamic_cast<const EditCommand*>(m_undo->command(top)))
        const_cast<EditCommand*>(cmd)->close();
}

void ScenarioDocument::setKeepGpuCount(bool keep) {
    if (m_rules.keepGpuCount == keep)
        return;
    m_rules.keepGpuCount = keep;
    recomputeSteps();
    emit scenarioChanged();
}

void ScenarioDocument::setHoldGlobalBatch(bool hold) {
    if (m_rules.holdGlobalBatch == hold)
        return;
    m_rules.holdGlobalBatch = hold;
    recomputeSteps();
    emit scenarioChanged();
}

void ScenarioDocument::setProfileOverride(std::optional<core::HardwareProfile> profile) {
    m_profileOverride = std::move(profile);
    updateProfile(true);
    reevaluate();
}

void ScenarioDocument::applyFromCommand(const core::Scenario& s) {
    if (s.cluster.nodes > 1)
        m_rules.nodeSize = s.cluster.gpusPerNode; // a multi-node cluster defines the node size
    replaceScenario(s);
}

void ScenarioDocument::replaceScenario(const core::Scenario& s) {
    m_scenario = s;
    updateProfile(false);
    recomputeSteps();
    emit scenarioChanged();
    reevaluate();
}

void ScenarioDocument::updateProfile(bool force) {
    if (m_profileOverride) {
        if (force) {
            m_profile = *m_profileOverride;
            emit profileChanged();
        }
        return;
    }
    if (force || !(m_profileGpu == m_scenario.cluster.gpu)) {
        m_profileGpu = m_scenario.cluster.gpu;
        m_profile = core::builtinProfile(m_profileGpu);
        emit profileChanged();
    }
}

void ScenarioDocument::recomputeSteps() {
    for (int i = 0; i < core::kLayoutAxisCount; ++i)
        m_steps[static_cast<std::size_t>(i)] =
            core::validSteps(m_scenario, static_cast<core::LayoutAxis>(i), m_rules);
}

void ScenarioDocument::reevaluate() {
    QElapsedTimer timer;
    timer.start();
    core::evaluate(m_scenario, m_profile, m_plan); // over the last plan: a slider step allocates nothing
    m_evaluationMicros = static_cast<double>(timer.nsecsElapsed()) / 1e3;
    ++m_evaluations;
    if (m_plan.valid) {
        m_shownPlan = m_plan;
        m_shownScenario = m_scenario;
        m_hasShownPlan = true;
    } else if (!m_hasShownPlan) {
        m_shownPlan = m_plan;
        m_shownScenario = m_scenario;
    }
    emit planChanged();
}

void ScenarioDocument::newScenario() {
    resetTo(core::defaultScenario(), QString(), false);
}

void ScenarioDocument::resetTo(const core::Scenario& s, const QString& path, bool modified) {
    m_undo->clear();
    m_path = path;
    m_dirtyWithoutFile = modified;
    m_rules.nodeSize = s.cluster.gpusPerNode;
    m_hasShownPlan = false;
    replaceScenario(s);
    m_undo->setClean();
    emit fileStateChanged();
    emit replaced();
}

OpenResult ScenarioDocument::openFile(const QString& path) {
    OpenResult result;
    result.path = path;
    auto loaded = core::loadScenarioFile(path.toStdString());
    if (!loaded) {
        for (const core::InputError& e : loaded.error()) {
            QString line = QString::fromStdString(e.message());
            if (e.line > 0)
                line += tr(" (line %1, column %2)").arg(e.line).arg(e.column);
            result.problems << line;
        }
        if (result.problems.isEmpty())
            result.problems << tr("The file could not be read.");
        return result;
    }
    resetTo(*loaded, QFileInfo(path).absoluteFilePath(), false);
    result.ok = true;
    return result;
}

bool ScenarioDocument::saveTo(const QString& path, QString* error) {
    QSaveFile file(path);
    const std::string text = core::scenarioToJson(m_scenario);
    bool ok = file.open(QIODevice::WriteOnly | QIODevice::Truncate);
    if (ok)
        ok = file.write(text.data(), static_cast<qint64>(text.size())) == static_cast<qint64>(text.size());
    if (ok)
        ok = file.commit();
    else
        file.cancelWriting();
    if (!ok) {
        if (error)
            *error = file.errorString();
        return false;
    }
    m_path = QFileInfo(path).absoluteFilePath();
    m_dirtyWithoutFile = false;
    ++m_saves;
    m_undo->setClean();
    emit fileStateChanged();
    return true;
}

} // namespace lp::ui

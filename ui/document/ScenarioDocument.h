#pragma once
// The one controller of the window: owns the current Scenario, its hardware profile and Plan,
// applies every edit through a QUndoStack, re-evaluates, and tells the views. Widgets only read
// from it and send edits to it.
#include "core/estimate/Plan.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"
#include "core/search/LayoutSteps.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <array>
#include <optional>
#include <vector>

class QUndoStack;

namespace lp::ui {

// Merge ids for QUndoCommand: consecutive edits of the same control during one drag become one step.
enum class EditKind {
    Scenario = 1, // anything without its own id (preset choice, file-level change)
    Layout = 100, // + core::LayoutAxis
    Model = 200,  // + field index
    Cluster = 300,
    Training = 400,
};
int mergeIdFor(EditKind kind, int field = 0);

struct OpenResult {
    bool ok = false;
    QString path;
    QStringList problems; // "model.heads: must be a positive integer, got -3 (line 7, column 12)"
};

// A point in the undo history to come back to, the redo side included: the guided tour rewinds to it,
// so the user's scenario, its undo and redo steps and its saved/unsaved state return as they were.
struct HistoryMark {
    struct Step {
        core::Scenario before;
        core::Scenario after;
        QString text;
    };
    int index = -1;      // the undo stack's index
    int cleanIndex = -1; // -1: the saved state was not reachable
    int saves = 0;       // saveTo() calls so far: a save since the mark makes its saved state stale
    bool dirtyWithoutFile = false;
    std::vector<Step> redo; // the steps above index, bottom first
};

class ScenarioDocument : public QObject {
    Q_OBJECT
public:
    explicit ScenarioDocument(QObject* parent = nullptr);
    ~ScenarioDocument() override;

    const core::Scenario& scenario() const { return m_scenario; }
    const core::HardwareProfile& profile() const { return m_profile; }
    // The latest evaluation; invalid when the layout is (then views keep showing shownPlan()).
    const core::Plan& plan() const { return m_plan; }
    // The last valid Plan and the scenario that produced it (== plan() while the layout is valid).
    const core::Plan& shownPlan() const { return m_shownPlan; }
    const core::Scenario& shownScenario() const { return m_shownScenario; }
    bool isShowingStalePlan() const { return !m_plan.valid && m_hasShownPlan; }
    double evaluationMicroseconds() const { return m_evaluationMicros; }
    long long evaluations() const { return m_evaluations; }

    QUndoStack* undoStack() const { return m_undo; }

    // Edits (each one undoable). mergeId != -1 merges with the previous edit of the same id while
    // `interactive` (a slider drag); endInteraction() closes it.
    void edit(const core::Scenario& next, const QString& description, int mergeId = -1,
              bool interactive = false);
    void setLayoutValue(core::LayoutAxis axis, int value, bool interactive = false);
    void editCluster(const core::ClusterSpec& cluster, const QString& description, int mergeId = -1);
    void endInteraction();

    HistoryMark historyMark() const;
    // Undoes back to the mark and drops what was done since, putting the mark's redo steps back.
    // False (nothing changes) when the history was replaced since (New, Open, a restore).
    bool rewindTo(const HistoryMark& mark);

    bool keepGpuCount() const { return m_rules.keepGpuCount; }
    void setKeepGpuCount(bool keep);
    bool holdGlobalBatch() const { return m_rules.holdGlobalBatch; }
    void setHoldGlobalBatch(bool hold);
    const core::LayoutRules& layoutRules() const { return m_rules; }
    const std::vector<int>& steps(core::LayoutAxis axis) const {
        return m_steps[static_cast<std::size_t>(axis)];
    }

    // A profile measured elsewhere replaces the GPU's built-in one (nullopt: built-in).
    void setProfileOverride(std::optional<core::HardwareProfile> profile);

    // Files. openFile() changes nothing when the file is malformed and says what and where.
    QString filePath() const { return m_path; }
    QString displayName() const; // the file's name, or the scenario's while it has no file
    bool isModified() const;
    void newScenario();
    OpenResult openFile(const QString& path);
    bool saveTo(const QString& path, QString* error = nullptr); // atomic (QSaveFile)
    // Replaces the document (autosave restore): becomes modified with no file unless `path` is given.
    void resetTo(const core::Scenario& s, const QString& path, bool modified);

    // Applied by the undo commands only.
    void applyFromCommand(const core::Scenario& s);

signals:
    void scenarioChanged();  // the scenario (and the control steps) changed
    void planChanged();      // a new Plan is available
    void fileStateChanged(); // path or saved/unsaved state changed
    void profileChanged();
    void replaced(); // resetTo() (New, Open, a restore): the earlier undo history is gone

private:
    void replaceScenario(const core::Scenario& s); // the scenario, its profile and steps, re-evaluated
    void reevaluate();
    void recomputeSteps();
    void updateProfile(bool force);

    core::Scenario m_scenario;
    core::HardwareProfile m_profile;
    core::GpuSpec m_profileGpu;
    std::optional<core::HardwareProfile> m_profileOverride;
    core::Plan m_plan;
    core::Plan m_shownPlan;
    core::Scenario m_shownScenario;
    bool m_hasShownPlan = false;
    double m_evaluationMicros = 0;
    long long m_evaluations = 0;
    core::LayoutRules m_rules;
    std::array<std::vector<int>, core::kLayoutAxisCount> m_steps;
    QUndoStack* m_undo = nullptr;
    QString m_path;
    bool m_dirtyWithoutFile = false; // restored from autosave: unsaved although the stack is clean
    int m_saves = 0;
};

} // namespace lp::ui

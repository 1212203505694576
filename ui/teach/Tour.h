#pragma once
// The guided tour in the window: loads the tour (resources/teaching/tour.json), applies each step's
// scenario to the ScenarioDocument (one undoable edit per step), and says which widget to highlight and
// which figure to explain. Next/back, and resumable: the last step is kept in QSettings. However it ends
// (finished, stopped, closed), the user's scenario, undo history and saved/unsaved state come back.
#include "core/teach/TourScript.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/Format.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace lp::ui {

class Tour : public QObject {
    Q_OBJECT
public:
    explicit Tour(ScenarioDocument* doc, QObject* parent = nullptr);

    // Reads a tour file (default: the one compiled in). Returns false and keeps errors() when it is bad.
    bool load(const QString& path = QStringLiteral(":/teaching/tour.json"));
    bool loadFromJson(const QByteArray& json);
    QStringList errors() const { return m_errors; }

    const core::TourScript& script() const { return m_script; }
    int count() const { return static_cast<int>(m_script.steps.size()); }
    int current() const { return m_current; } // -1 when the tour is not running
    bool isActive() const { return m_current >= 0; }
    const core::TourStep* currentStep() const;

    // The current step's text with its {{figures}} filled from the document's current Plan, memory in the
    // window's unit (as the memory chart reads it).
    QString currentHtml() const;
    void setUnit(MemoryUnit unit);
    // The current step's claims, checked against the document's current scenario and Plan.
    std::vector<core::CheckResult> currentChecks() const;

    // Resuming: the step stored in QSettings ("teaching/tourStep"); persistence off for screenshots.
    void setPersistent(bool persistent) { m_persistent = persistent; }
    bool isPersistent() const { return m_persistent; }
    int savedStep() const;

public slots:
    void start(int step = -1); // -1: where the tour was left (or the first step)
    void next();               // past the last step: finishes
    void back();
    void goTo(int step);
    void restart() { goTo(0); }
    void stop(); // the user's scenario comes back; the step is remembered for resuming
    // The tour's scenario stays when it ends (a rendering of one step for the docs).
    void keepScenarioOnEnd() { m_start.reset(); }

signals:
    void starting(); // before the first step's scenario replaces the user's
    void activeChanged(bool active);
    void stepChanged(int index);                        // after the step's scenario is in the document
    void highlightRequested(const QString& objectName); // empty: nothing to highlight
    void explainRequested(const QString& key);
    void finished();                      // next() on the last step
    void problem(const QString& message); // a step's scenario could not be built
    void unitChanged();                   // the figures of the current step read otherwise

private:
    void apply(int step);
    void save(int step) const;
    void end();
    void restoreUserScenario();

    ScenarioDocument* m_doc;
    core::TourScript m_script;
    QStringList m_errors;
    int m_current = -1;
    bool m_persistent = true;
    MemoryUnit m_unit = MemoryUnit::GiB;
    std::optional<HistoryMark> m_start; // the user's history when the tour started; empty: keep the tour's
};

} // namespace lp::ui

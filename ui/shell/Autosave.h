#pragma once
// Autosave: while the document has unsaved changes, its scenario is written (atomically) to the
// application data folder every few seconds. A clean exit removes the file; finding it at start
// means the last session ended without closing (crash, kill), and the window offers to restore it.
#include "core/model/Scenario.h"

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>

class QLockFile;

namespace lp::ui {

class ScenarioDocument;

struct AutosaveSnapshot {
    core::Scenario scenario;
    QString originalPath; // the file the unsaved scenario came from, if any
    QDateTime savedAt;
};

class Autosave : public QObject {
    Q_OBJECT
public:
    // directory empty: QStandardPaths::AppDataLocation.
    explicit Autosave(ScenarioDocument* doc, QString directory = {}, QObject* parent = nullptr);
    ~Autosave() override;

    // The first window (of any process) owns autosave.json and is offered its restore; another window
    // running at the same time autosaves to a file of its own and offers nothing.
    bool isPrimary() const { return m_primary; }

    QString filePath() const;
    void setIntervalMs(int ms) { m_timer.setInterval(ms); }
    int intervalMs() const { return m_timer.interval(); }

    // What a previous session left behind (nullopt: nothing, or unreadable; unreadable files are removed).
    std::optional<AutosaveSnapshot> pending() const;

    // While suspended (a restore offer is open) nothing is written, so the old file survives.
    void setSuspended(bool suspended);
    bool isSuspended() const { return m_suspended; }

    // While the guided tour shows its own scenarios the file keeps the user's: written when the tour
    // starts, then left alone until it ends (a crash mid-tour restores the user's work, not a tour step).
    void setTourRunning(bool running);

    bool saveNow(); // writes the current scenario (when modified) and returns true on success
    void discard(); // removes the autosave file (clean exit, save, restore declined)

private:
    void scheduleSave();
    bool writingPaused() const { return m_suspended || m_tourRunning; }

    ScenarioDocument* m_doc;
    QString m_dir;
    QTimer m_timer;
    bool m_suspended = false;
    bool m_tourRunning = false;
    bool m_primary = true;
    std::unique_ptr<QLockFile> m_lock;
};

} // namespace lp::ui

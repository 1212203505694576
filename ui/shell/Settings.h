#pragma once
// The persisted settings (QSettings), each key with a validator and a fallback; values that fail
// validation are reported (problems()) instead of silently ignored.
#include "ui/widgets/Format.h"

#include <QByteArray>
#include <QObject>
#include <QStringList>

class QSettings;

namespace lp::ui {

class Settings : public QObject {
    Q_OBJECT
public:
    // persistent: the application's QSettings. persistent == false: nothing is read or written
    // (screenshots, tests that want defaults).
    explicit Settings(bool persistent = true, QObject* parent = nullptr);
    ~Settings() override;

    MemoryUnit memoryUnit() const { return m_unit; }
    void setMemoryUnit(MemoryUnit u);

    bool keepGpuCount() const { return m_keepGpuCount; }
    void setKeepGpuCount(bool keep);
    bool holdGlobalBatch() const { return m_holdGlobalBatch; }
    void setHoldGlobalBatch(bool hold);

    QByteArray geometry() const;
    void setGeometry(const QByteArray& g);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& s);

    // The folder of the last file opened, saved, exported or imported: where file dialogs start (home at
    // first).
    QString lastDirectory() const;
    void setLastDirectory(const QString& directory);

    QString lastScenario() const;
    void setLastScenario(const QString& path);

    // Whether the first-run hint that points to the guided tour has been shown (it is shown once).
    bool tourHintShown() const;
    void setTourHintShown();

    QStringList recentFiles() const { return m_recent; }
    void addRecentFile(const QString& path);
    void removeRecentFile(const QString& path);
    static constexpr int kMaxRecent = 8;

    QStringList problems() const { return m_problems; }

signals:
    void memoryUnitChanged(lp::ui::MemoryUnit unit);
    void recentFilesChanged();

private:
    void load();
    QSettings* m_store = nullptr;
    MemoryUnit m_unit = MemoryUnit::GiB;
    bool m_keepGpuCount = true;
    bool m_holdGlobalBatch = false;
    QStringList m_recent;
    QString m_lastDirectory;
    QStringList m_problems;
};

} // namespace lp::ui

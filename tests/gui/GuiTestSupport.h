#pragma once
// Shared test support for the GUI tests: isolated settings and data folders, scripted answers for
// the window's questions (so no test ever blocks on a modal dialog), and small helpers.
#include "ui/document/Prompter.h"

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <deque>
#include <utility>

namespace lp::test {

// Points QSettings and QStandardPaths at throw-away folders; call from initTestCase().
inline void isolateUserFolders(QTemporaryDir& dir) {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("LayoutPlannerTests"));
    QCoreApplication::setApplicationName(QStringLiteral("layout-planner-tests"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.filePath(QStringLiteral("config")));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath(QStringLiteral("config")));
    QSettings().clear();
}

// Answers the window's questions from a script and records what was asked.
class ScriptedPrompter : public lp::ui::Prompter {
public:
    std::deque<SaveChoice> saveChoices;
    std::deque<QString> openFiles;
    std::deque<QString> saveFiles;
    std::deque<QString> importFiles;
    std::deque<std::pair<QString, int>> exportFiles; // the path typed and the index of the format chosen
    QStringList asked;

    SaveChoice askSaveChanges(QWidget*, const QString& name) override {
        asked << QStringLiteral("save-changes:") + name;
        return next(saveChoices, SaveChoice::Cancel);
    }
    QString askOpenFile(QWidget*, const QString&) override {
        asked << QStringLiteral("open");
        return next(openFiles, QString());
    }
    QString askSaveFile(QWidget*, const QString&) override {
        asked << QStringLiteral("save-as");
        return next(saveFiles, QString());
    }
    QString askImportFile(QWidget*, const QString&, const QString& directory, const QString&) override {
        asked << QStringLiteral("import:") + directory;
        return next(importFiles, QString());
    }
    QString askExportFile(QWidget*, const QString&, const QString& suggested, const QStringList& formats,
                          int* chosen) override {
        asked << QStringLiteral("export:") + suggested + QStringLiteral(" as ") + formats.value(*chosen);
        const auto answer = next(exportFiles, std::pair<QString, int>());
        *chosen = answer.second;
        return answer.first;
    }
    void showError(QWidget*, const QString& title, const QString&) override {
        asked << QStringLiteral("error:") + title;
    }

private:
    // The script's next answer, or `none` (cancelled) when the script has run out.
    template <typename Answer> static Answer next(std::deque<Answer>& script, Answer none) {
        if (script.empty())
            return none;
        Answer answer = script.front();
        script.pop_front();
        return answer;
    }
};

} // namespace lp::test

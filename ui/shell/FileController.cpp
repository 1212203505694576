#include "ui/shell/FileController.h"

#include "core/io/HfImport.h"
#include "ui/document/Prompter.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/shell/Settings.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/InlineBanner.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>

namespace lp::ui {

FileController::FileController(ScenarioDocument* doc, Settings* settings, InlineBanner* banner,
                               QWidget* window)
    : QObject(window), m_doc(doc), m_settings(settings), m_banner(banner), m_window(window),
      m_prompter(std::make_unique<DialogPrompter>()), m_recent(new QMenu(tr("Open &Recent"), window)) {
    m_recent->setToolTipsVisible(true);
    connect(m_settings, &Settings::recentFilesChanged, this, &FileController::rebuildRecentMenu);
    rebuildRecentMenu();
}

FileController::~FileController() = default;

void FileController::setPrompter(std::unique_ptr<Prompter> prompter) {
    m_prompter = std::move(prompter);
}

void FileController::rebuildRecentMenu() {
    m_recent->clear();
    const QStringList files = m_settings->recentFiles();
    int n = 0;
    for (const QString& path : files) {
        ++n;
        const QString label = n < 10 ? QStringLiteral("&%1 %2").arg(n).arg(QFileInfo(path).fileName())
                                     : QFileInfo(path).fileName();
        QAction* a = m_recent->addAction(label);
        a->setToolTip(QDir::toNativeSeparators(path));
        a->setStatusTip(QDir::toNativeSeparators(path));
        connect(a, &QAction::triggered, this, [this, path] { openPath(path); });
    }
    if (files.isEmpty()) {
        QAction* none = m_recent->addAction(tr("No recent files"));
        none->setEnabled(false);
    } else {
        m_recent->addSeparator();
        QAction* clear = m_recent->addAction(tr("Clear list"));
        connect(clear, &QAction::triggered, this, [this] {
            for (const QString& p : m_settings->recentFiles())
                m_settings->removeRecentFile(p);
        });
    }
}

bool FileController::maybeSave() {
    if (!m_doc->isModified())
        return true;
    switch (m_prompter->askSaveChanges(m_window, m_doc->displayName())) {
    case Prompter::SaveChoice::Save:
        return save();
    case Prompter::SaveChoice::Discard:
        return true;
    case Prompter::SaveChoice::Cancel:
        return false;
    }
    return false;
}

bool FileController::newScenario() {
    if (!maybeSave())
        return false;
    m_doc->newScenario();
    m_banner->hide();
    emit statusMessage(tr("New scenario: the seed's worked example."));
    return true;
}

bool FileController::open() {
    if (!maybeSave())
        return false;
    const QString path = m_prompter->askOpenFile(m_window, m_settings->lastDirectory());
    if (path.isEmpty())
        return false;
    return loadPath(path);
}

bool FileController::openPath(const QString& path) {
    if (!maybeSave())
        return false;
    return loadPath(path);
}

bool FileController::loadPath(const QString& path) {
    m_settings->setLastDirectory(QFileInfo(path).absolutePath());
    if (core::isHfConfigFile(path.toStdString())) {
        emit hfConfigOpened(path);
        return false;
    }
    const OpenResult result = m_doc->openFile(path);
    if (!result.ok) {
        QStringList lines;
        for (const QString& p : result.problems)
            lines << p.toHtmlEscaped();
        m_banner->showMessage(
            InlineBanner::Kind::Error,
            tr("Could not open %1: nothing was changed.").arg(QFileInfo(path).fileName().toHtmlEscaped()),
            lines.join(QStringLiteral("<br>")));
        if (!QFileInfo::exists(path))
            m_settings->removeRecentFile(QFileInfo(path).absoluteFilePath());
        return false;
    }
    m_banner->hide();
    m_settings->addRecentFile(m_doc->filePath());
    m_settings->setLastScenario(m_doc->filePath());
    emit statusMessage(tr("Opened %1").arg(QDir::toNativeSeparators(m_doc->filePath())));
    return true;
}

bool FileController::save() {
    if (m_doc->filePath().isEmpty())
        return saveAs();
    return saveTo(m_doc->filePath());
}

bool FileController::saveAs() {
    QString suggested = m_doc->filePath();
    if (suggested.isEmpty()) {
        QString name = qs(core::scenarioName(m_doc->scenario())).simplified();
        name.replace(QLatin1Char('/'), QLatin1Char('-'));
        suggested = QDir(m_settings->lastDirectory()).filePath(name + QStringLiteral(".json"));
    }
    const QString path = m_prompter->askSaveFile(m_window, suggested);
    if (path.isEmpty())
        return false;
    return saveTo(path);
}

bool FileController::saveTo(const QString& path) {
    QString error;
    if (!m_doc->saveTo(path, &error)) {
        m_banner->showMessage(InlineBanner::Kind::Error,
                              tr("Could not save %1").arg(QDir::toNativeSeparators(path).toHtmlEscaped()),
                              error.toHtmlEscaped());
        return false;
    }
    m_settings->setLastDirectory(QFileInfo(path).absolutePath());
    m_settings->addRecentFile(m_doc->filePath());
    m_settings->setLastScenario(m_doc->filePath());
    emit statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(m_doc->filePath())));
    return true;
}

} // namespace lp::ui

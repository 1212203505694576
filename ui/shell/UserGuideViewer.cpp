#include "ui/shell/UserGuideViewer.h"

#include "ui/document/ValidationSets.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace lp::ui {
namespace {
const QString kGuide = QStringLiteral("docs/user-guide.md");
const QString kInstalledDocs = QStringLiteral("doc/layout-planner");
} // namespace

QStringList UserGuideViewer::guideCandidates() {
    QStringList out = pathsUpwards(kGuide);
    // An installed program: <prefix>/bin beside <prefix>/share, then the system's data folders.
    out << QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../share/") +
                           kInstalledDocs + QLatin1Char('/') + kGuide);
    for (const QString& base : QStandardPaths::standardLocations(QStandardPaths::GenericDataLocation))
        out << QDir::cleanPath(QDir(base).filePath(kInstalledDocs + QLatin1Char('/') + kGuide));
    out.removeDuplicates();
    return out;
}

QString UserGuideViewer::findGuide() {
    for (const QString& path : guideCandidates())
        if (QFileInfo(path).isFile())
            return path;
    return {};
}

UserGuideViewer::UserGuideViewer(const QString& guidePath, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("userGuide"));
    setWindowTitle(tr("Layout Planner User Guide"));
    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("userGuideBrowser"));
    m_browser->setOpenExternalLinks(true);
    m_browser->setSource(QUrl::fromLocalFile(guidePath), QTextDocument::MarkdownResource);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* inBrowser = buttons->addButton(tr("Open in &Browser"), QDialogButtonBox::ActionRole);
    inBrowser->setToolTip(tr("Open the page shown here in the desktop's web browser or Markdown viewer."));
    connect(inBrowser, &QPushButton::clicked, this,
            [this] { QDesktopServices::openUrl(m_browser->source()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser, 1);
    layout->addWidget(buttons);
    resize(900, 700);
}

} // namespace lp::ui

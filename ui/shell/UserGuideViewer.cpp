#include "ui/shell/UserGuideViewer.h"

#include "ui/document/ValidationSets.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QImage>
#include <QPushButton>
#include <QStandardPaths>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QUrl>
#include <QVBoxLayout>
#include <QVector>

#include <algorithm>

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
    // Each page's pictures are fitted when it is shown (links to other pages load new ones) and whenever
    // the page's width changes.
    connect(m_browser, &QTextBrowser::sourceChanged, this, &UserGuideViewer::fitImages);
    m_browser->viewport()->installEventFilter(this);
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

bool UserGuideViewer::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_browser->viewport() && event->type() == QEvent::Resize)
        fitImages();
    return QDialog::eventFilter(watched, event);
}

void UserGuideViewer::fitImages() {
    QTextDocument* doc = m_browser->document();
    // The page's width less the document's margins on both sides and the room a list item indents.
    const double room = m_browser->viewport()->width() - 2 * doc->documentMargin() - 40;
    if (room <= 0)
        return;
    struct Picture {
        int position;
        int length;
        QTextImageFormat format;
    };
    QVector<Picture> pictures;
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (fragment.isValid() && fragment.charFormat().isImageFormat())
                pictures.push_back(
                    {fragment.position(), fragment.length(), fragment.charFormat().toImageFormat()});
        }
    for (Picture& picture : pictures) {
        const QImage image =
            doc->resource(QTextDocument::ImageResource, QUrl(picture.format.name())).value<QImage>();
        if (image.isNull() || image.width() <= 0)
            continue;
        const double width = std::min<double>(image.width(), room);
        if (picture.format.width() == width)
            continue;
        picture.format.setWidth(width);
        picture.format.setHeight(width * image.height() / image.width());
        QTextCursor cursor(doc);
        cursor.setPosition(picture.position);
        cursor.setPosition(picture.position + picture.length, QTextCursor::KeepAnchor);
        cursor.setCharFormat(picture.format);
    }
}

} // namespace lp::ui

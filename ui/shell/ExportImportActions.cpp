#include "ui/shell/ExportImportActions.h"

#include "core/io/HfImport.h"
#include "ui/document/Prompter.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/interop/LaunchSettingsDialog.h"
#include "ui/interop/ReportWriter.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/Settings.h"
#include "ui/shell/WindowMenus.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/InlineBanner.h"

#include <QAction>
#include <QDesktopServices>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMenu>
#include <QMimeData>
#include <QStatusBar>
#include <QUrl>

namespace lp::ui {
namespace {

constexpr const char* kExportedPath = "lpExportedPath"; // on the file banner: what its Open buttons open
constexpr const char* kHfConfigPath = "lpHfConfigPath"; // on the file banner: what its Import button imports

// Drops of a Hugging Face config.json on the window import its architecture.
class HfDropFilter : public QObject {
public:
    explicit HfDropFilter(MainWindow& w) : QObject(&w), m_window(w) {}

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::DragEnter) {
            auto* e = static_cast<QDragEnterEvent*>(event);
            if (localJson(e->mimeData()).isEmpty())
                return false;
            e->acceptProposedAction();
            return true;
        }
        if (event->type() == QEvent::Drop) {
            auto* e = static_cast<QDropEvent*>(event);
            const QString path = localJson(e->mimeData());
            if (path.isEmpty())
                return false;
            e->acceptProposedAction();
            importHfConfig(m_window, path);
            return true;
        }
        return QObject::eventFilter(watched, event);
    }

private:
    static QString localJson(const QMimeData* mime) {
        if (!mime || !mime->hasUrls() || mime->urls().size() != 1)
            return {};
        const QUrl url = mime->urls().front();
        if (!url.isLocalFile() || !url.toLocalFile().endsWith(QStringLiteral(".json"), Qt::CaseInsensitive))
            return {};
        return url.toLocalFile();
    }
    MainWindow& m_window;
};

// Writes the report in the format chosen in the dialog (the file's extension follows it), then says so with
// the offer to open the file or its folder.
void writeReport(MainWindow& w) {
    const QStringList filters = ReportWriter::fileFilters();
    int chosen = 0; // PDF
    const QString suggested =
        QDir(w.settings()->lastDirectory())
            .filePath(qs(core::reportFileStem(w.document()->scenario())) + QStringLiteral(".") +
                      qs(core::toString(ReportWriter::dialogFormats().front())));
    QString path =
        w.files()->prompter()->askExportFile(&w, QObject::tr("Export report"), suggested, filters, &chosen);
    const auto& formats = ReportWriter::dialogFormats();
    if (path.isEmpty() || chosen < 0 || chosen >= static_cast<int>(formats.size()))
        return;
    const core::ReportFormat format = formats[static_cast<std::size_t>(chosen)];
    path = ReportWriter::pathForFormat(path, format);
    w.settings()->setLastDirectory(QFileInfo(path).absolutePath());
    QString error;
    if (!ReportWriter::write(ReportWriter::reportFor(*w.document()), format, path, &error)) {
        w.layoutBanner()->showMessage(InlineBanner::Kind::Error, QObject::tr("The report was not written"),
                                      error);
        return;
    }
    const QString shown = QDir::toNativeSeparators(path);
    w.statusBar()->showMessage(QObject::tr("Report written to %1").arg(shown), 10000);
    InlineBanner* banner = w.fileBanner();
    banner->showMessage(InlineBanner::Kind::Info,
                        QObject::tr("Report written to %1").arg(shown.toHtmlEscaped()));
    banner->setProperty(kExportedPath, path);
    banner->addAction(QStringLiteral("open-report"), QObject::tr("&Open"), QObject::tr("Open the report"));
    banner->addAction(QStringLiteral("open-report-folder"), QObject::tr("Open &folder"),
                      QObject::tr("Open the folder that holds the report"));
}

// The banners' offers: open what was exported, import a Hugging Face config that was opened as a scenario.
void answerFileOffers(MainWindow& w) {
    InlineBanner* banner = w.fileBanner();
    QObject::connect(banner, &InlineBanner::actionTriggered, &w, [&w, banner](const QString& id) {
        const QString exported = banner->property(kExportedPath).toString();
        if (id == QLatin1String("open-report"))
            QDesktopServices::openUrl(QUrl::fromLocalFile(exported));
        else if (id == QLatin1String("open-report-folder"))
            QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(exported).absolutePath()));
        else if (id == QLatin1String("import-hf"))
            importHfConfig(w, banner->property(kHfConfigPath).toString());
    });
    QObject::connect(w.files(), &FileController::hfConfigOpened, &w, [banner](const QString& path) {
        const QString name = QFileInfo(path).fileName();
        banner->showMessage(InlineBanner::Kind::Info,
                            qs(core::hfConfigNotScenarioText(name.toStdString())).toHtmlEscaped(),
                            QObject::tr("Import its architecture as the model of the current scenario?"));
        banner->setProperty(kHfConfigPath, path);
        banner->addAction(QStringLiteral("import-hf"), QObject::tr("&Import model"),
                          QObject::tr("Take the model architecture from %1 (one undoable edit)").arg(name));
    });
}

void addExportReport(MainWindow& w, QMenu& file) {
    QAction* exportReport = file.addAction(QObject::tr("&Export report..."));
    exportReport->setShortcut(QKeySequence(QStringLiteral("Ctrl+E")));
    exportReport->setToolTip(
        QObject::tr("Write a layout report of the current plan as PDF, HTML, Markdown or JSON"));
    QObject::connect(exportReport, &QAction::triggered, &w, [&w] { writeReport(w); });

    // The tool bar's Export: the same dialog, with a short text.
    auto* exportButton = new QAction(QObject::tr("Export"), &w);
    exportButton->setObjectName(QStringLiteral("exportAction"));
    exportButton->setToolTip(exportReport->toolTip());
    QObject::connect(exportButton, &QAction::triggered, exportReport, &QAction::trigger);
    w.menus()->addToolButton(exportButton);
}

void addLaunchSettings(MainWindow& w, QMenu& file) {
    QAction* launch = file.addAction(QObject::tr("Export &launch settings..."));
    launch->setToolTip(
        QObject::tr("Megatron-LM arguments, DeepSpeed config or torchtitan settings for this layout"));
    QObject::connect(launch, &QAction::triggered, &w, [&w] {
        auto* dialog = new LaunchSettingsDialog(w.document()->scenario(), &w);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        QObject::connect(dialog, &LaunchSettingsDialog::copied, &w,
                         [&w](const QString& what) { w.statusBar()->showMessage(what, 4000); });
        dialog->show();
    });
}

void addHfImport(MainWindow& w, QMenu& file) {
    QAction* hf = file.addAction(QObject::tr("&Import Hugging Face config..."));
    hf->setToolTip(QObject::tr(
        "Take the model architecture from a Hugging Face config.json (or drop one on the window)"));
    QObject::connect(hf, &QAction::triggered, &w, [&w] {
        const QString path = w.files()->prompter()->askImportFile(
            &w, QObject::tr("Import Hugging Face config"), w.settings()->lastDirectory(),
            QObject::tr("Hugging Face config (*.json)"));
        if (path.isEmpty())
            return;
        w.settings()->setLastDirectory(QFileInfo(path).absolutePath());
        importHfConfig(w, path);
    });
    w.setAcceptDrops(true);
    w.installEventFilter(new HfDropFilter(w));
}

} // namespace

bool importHfConfig(MainWindow& w, const QString& path) {
    auto imported = core::loadHfConfigFile(path.toStdString());
    if (!imported) {
        QStringList problems;
        for (const core::InputError& e : imported.error())
            problems << QString::fromStdString(e.message());
        w.layoutBanner()->showMessage(
            InlineBanner::Kind::Error,
            QObject::tr("Cannot import %1 as a Hugging Face config").arg(QFileInfo(path).fileName()),
            problems.join(QLatin1Char('\n')));
        return false;
    }
    ScenarioDocument& doc = *w.document();
    core::Scenario next = doc.scenario();
    next.model = imported->model;
    doc.edit(next, QObject::tr("Import model from %1").arg(QFileInfo(path).fileName()));
    w.statusBar()->showMessage(QObject::tr("Imported %1 from %2")
                                   .arg(QString::fromStdString(next.model.name), QFileInfo(path).fileName()),
                               5000);
    return true;
}

void installExportImportActions(MainWindow& w) {
    QMenu& file = *w.menus()->fileMenu();
    file.addSeparator();
    addExportReport(w, file);
    addLaunchSettings(w, file);
    addHfImport(w, file);
    answerFileOffers(w);
}

} // namespace lp::ui

#include "ui/shell/ExportImportActions.h"

#include "core/io/HfImport.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/interop/LaunchSettingsDialog.h"
#include "ui/interop/ReportWriter.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/WindowMenus.h"
#include "ui/widgets/InlineBanner.h"

#include <QAction>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMimeData>
#include <QStatusBar>
#include <QUrl>

namespace lp::ui {
namespace {

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

void addExportReport(MainWindow& w, QMenu& file) {
    QAction* exportReport = file.addAction(QObject::tr("&Export report..."));
    exportReport->setShortcut(QKeySequence(QStringLiteral("Ctrl+E")));
    exportReport->setToolTip(
        QObject::tr("Write a layout report of the current plan as PDF, HTML, Markdown or JSON"));
    QObject::connect(exportReport, &QAction::triggered, &w, [&w] {
        const QString path =
            QFileDialog::getSaveFileName(&w, QObject::tr("Export report"),
                                         QStringLiteral("layout-report.html"), ReportWriter::fileFilter());
        if (path.isEmpty())
            return;
        const auto format = ReportWriter::formatForPath(path).value_or(core::ReportFormat::Html);
        QString error;
        if (ReportWriter::write(ReportWriter::reportFor(*w.document()), format, path, &error))
            w.statusBar()->showMessage(QObject::tr("Report written to %1").arg(path), 5000);
        else
            w.layoutBanner()->showMessage(InlineBanner::Kind::Error,
                                          QObject::tr("The report was not written"), error);
    });

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
        const QString path =
            QFileDialog::getOpenFileName(&w, QObject::tr("Import Hugging Face config"), QString(),
                                         QObject::tr("Hugging Face config (*.json)"));
        if (!path.isEmpty())
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
}

} // namespace lp::ui

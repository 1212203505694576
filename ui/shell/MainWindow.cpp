#include "ui/shell/MainWindow.h"

#include "core/estimate/KeyFigures.h"
#include "core/estimate/Plan.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/DiagnosticsPanel.h"
#include "ui/plan/ExplanationPanel.h"
#include "ui/plan/PlanView.h"
#include "ui/scenario/LayoutSliders.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/Autosave.h"
#include "ui/shell/FileController.h"
#include "ui/shell/Settings.h"
#include "ui/shell/WindowMenus.h"
#include "ui/shell/WindowTabs.h"
#include "ui/widgets/ExplainTrigger.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/InlineBanner.h"
#include "ui/widgets/RejectedInput.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QPixmap>
#include <QScreen>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace lp::ui {

MainWindow::MainWindow(const WindowOptions& options, QWidget* parent)
    : QMainWindow(parent), m_options(options), m_settings(new Settings(options.persistentSettings, this)),
      m_doc(new ScenarioDocument(this)) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/layout-planner.svg")));
    m_doc->setKeepGpuCount(m_settings->keepGpuCount());
    m_doc->setHoldGlobalBatch(m_settings->holdGlobalBatch());

    createCentre();
    m_files = new FileController(m_doc, m_settings, m_banners.file, this);
    if (options.autosave)
        m_autosave = new Autosave(m_doc, options.autosaveDirectory, this);
    createDocks();
    m_menus = new WindowMenus(*this);
    createStatusBar();
    connectViews();
    // A typed value a field refuses is explained, never dropped in silence.
    for (QAbstractSpinBox* spin : findChildren<QAbstractSpinBox*>())
        explainRejectedInput(spin);

    applyUnit();
    updateLayoutBanner();
    updateTitle();
    updateStatus();
    restoreWindowLayout();
}

MainWindow::~MainWindow() = default;

// Banners above the tabs; the Plan view is the first tab.
void MainWindow::createCentre() {
    auto* centre = new QWidget(this);
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(4, 4, 4, 0);
    centreLayout->setSpacing(4);
    m_banners.restore = new InlineBanner(centre);
    m_banners.restore->setObjectName(QStringLiteral("restoreBanner"));
    m_banners.file = new InlineBanner(centre);
    m_banners.file->setObjectName(QStringLiteral("fileBanner"));
    m_banners.layout = new InlineBanner(centre);
    m_banners.layout->setObjectName(QStringLiteral("layoutBanner"));
    m_banners.layout->setClosable(false);
    m_banners.hint = new InlineBanner(centre);
    m_banners.hint->setObjectName(QStringLiteral("tourHintBanner"));
    m_tabs = new QTabWidget(centre);
    m_tabs->setObjectName(QStringLiteral("tabs"));
    m_tabs->setDocumentMode(true);
    m_planView = new PlanView(m_doc, m_tabs);
    WindowTabs::append(*m_tabs, WindowTab::Plan, m_planView);
    centreLayout->addWidget(m_banners.hint);
    centreLayout->addWidget(m_banners.restore);
    centreLayout->addWidget(m_banners.file);
    centreLayout->addWidget(m_banners.layout);
    centreLayout->addWidget(m_tabs, 1);
    setCentralWidget(centre);
}

void MainWindow::createDocks() {
    m_scenario.panel = new ScenarioPanel(m_doc, this);
    m_scenario.dock = addPanelDock(m_scenario.panel, tr("Scenario"), QStringLiteral("scenarioDock"),
                                   Qt::LeftDockWidgetArea);
    m_diagnostics.panel = new DiagnosticsPanel(m_doc, this);
    m_diagnostics.dock = addPanelDock(m_diagnostics.panel, tr("Diagnostics"),
                                      QStringLiteral("diagnosticsDock"), Qt::RightDockWidgetArea);
    m_explanation.panel = new ExplanationPanel(m_doc, this);
    m_explanation.dock = addPanelDock(m_explanation.panel, tr("Explanation"),
                                      QStringLiteral("explanationDock"), Qt::RightDockWidgetArea);
    splitDockWidget(m_diagnostics.dock, m_explanation.dock, Qt::Vertical);
}

QDockWidget* MainWindow::addPanelDock(QWidget* panel, const QString& title, const QString& objectName,
                                      Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::connectViews() {
    // The status bar follows a drag at most every 120 ms (it repaints a strip across the window).
    m_statusThrottle = new QTimer(this);
    m_statusThrottle->setSingleShot(true);
    m_statusThrottle->setInterval(120);
    connect(m_statusThrottle, &QTimer::timeout, this, &MainWindow::updateStatus);
    connect(m_doc, &ScenarioDocument::planChanged, this, [this] {
        updateLayoutBanner();
        if (m_doc->filePath().isEmpty())
            updateTitle(); // an unsaved scenario is titled by its name, which edits may change
        if (!m_statusThrottle->isActive())
            m_statusThrottle->start();
    });
    connect(m_doc, &ScenarioDocument::fileStateChanged, this, [this] {
        updateTitle();
        updateStatus();
    });

    relayExplanations(m_planView, m_explanation.panel, &ExplanationPanel::showKey,
                      &ExplanationPanel::previewKey);
    connect(m_diagnostics.panel, &DiagnosticsPanel::explainRequested, m_explanation.panel,
            &ExplanationPanel::showKey);
    connect(m_explanation.panel, &ExplanationPanel::keyChanged, m_planView, &PlanView::setActiveKey);
    connect(m_files, &FileController::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 4000); });
    connect(m_settings, &Settings::memoryUnitChanged, this, &MainWindow::applyUnit);
    connect(m_scenario.panel->layoutSliders(), &LayoutSliders::keepGpuCountToggled, m_settings,
            &Settings::setKeepGpuCount);
    connect(m_scenario.panel->layoutSliders(), &LayoutSliders::holdGlobalBatchToggled, m_settings,
            &Settings::setHoldGlobalBatch);
}

void MainWindow::restoreWindowLayout() {
    const QByteArray geometry = m_settings->geometry();
    if (geometry.isEmpty() || !restoreGeometry(geometry)) {
        QSize size(1600, 1000);
        if (const QScreen* screen = QGuiApplication::primaryScreen())
            size = size.boundedTo(screen->availableSize() * 0.95);
        resize(size);
    }
    if (restoreState(m_settings->windowState()))
        m_dockSizesPending = false;
    QStringList problems = m_settings->problems();
    for (QString& problem : problems) // the banner shows rich text; the settings file's values are not markup
        problem = problem.toHtmlEscaped();
    if (!problems.isEmpty())
        m_banners.file->showMessage(InlineBanner::Kind::Warning,
                                    tr("Some settings were not understood and were reset."),
                                    problems.join(QStringLiteral("<br>")));
}

void MainWindow::createStatusBar() {
    const char* tips[4] = {
        QT_TR_NOOP(
            "The hardware profile behind the time estimates (built-in, or measured by the calibration)."),
        QT_TR_NOOP("GPUs the layout uses: TP x PP x CP x DP."),
        QT_TR_NOOP("How long the core took to evaluate the last change."),
        QT_TR_NOOP("Whether the scenario has changes not yet saved to its file."),
    };
    for (int i = 0; i < 4; ++i) {
        m_status[i] = new QLabel(this);
        m_status[i]->setObjectName(QStringLiteral("status%1").arg(i));
        m_status[i]->setToolTip(tr(tips[i]));
        m_status[i]->setContentsMargins(6, 0, 6, 0);
        if (i == 2) // changes on every step: a fixed width keeps the status bar from re-laying out
            m_status[i]->setMinimumWidth(
                m_status[i]->fontMetrics().horizontalAdvance(tr("evaluated in 00,000 µs")) + 16);
        // The profile's label is an ordinary widget: a status message (an export, a refused value) takes its
        // place for a while. A permanent one filling the bar left a message no room at all.
        if (i == 0) {
            statusBar()->addWidget(m_status[i], 1);
            // The status bar hides it for a message without marking it hidden on purpose, and shows again
            // whatever is not when it lays itself out anew (a font change, as presentation mode makes): the
            // message was then drawn over the label's words. Hidden explicitly, it stays out of the way.
            connect(statusBar(), &QStatusBar::messageChanged, m_status[i],
                    [label = m_status[i]](const QString& message) { label->setVisible(message.isEmpty()); });
        } else
            statusBar()->addPermanentWidget(m_status[i]);
    }
}

QLabel* MainWindow::statusLabel(int which) const {
    return which >= 0 && which < 4 ? m_status[which] : nullptr;
}

void MainWindow::updateTitle() {
    setWindowTitle(tr("%1[*] — Layout Planner").arg(m_doc->displayName()));
    setWindowModified(m_doc->isModified());
}

void MainWindow::updateStatus() {
    if (!m_status[0])
        return;
    m_statusThrottle->stop();
    const core::HardwareProfile& profile = m_doc->profile();
    QString text = tr("Profile: %1").arg(QString::fromStdString(profile.name));
    if (!QString::fromStdString(profile.name).contains(QString::fromStdString(profile.origin)))
        text += QStringLiteral(" (%1)").arg(QString::fromStdString(profile.origin));
    if (!profile.measuredOn.empty())
        text += tr(", measured on %1 %2")
                    .arg(QString::fromStdString(profile.measuredOn), QString::fromStdString(profile.date));
    m_status[0]->setText(text);
    const core::Scenario& s = m_doc->scenario();
    QString gpus = qs(core::gpuCountText(s.layout.gpus())); // "1 GPU", "64 GPUs"
    if (s.layout.gpus() != s.cluster.gpus())
        gpus += tr(" of %1").arg(formatCount(s.cluster.gpus()));
    m_status[1]->setText(gpus);
    m_status[2]->setText(tr("evaluated in %1 µs").arg(formatNumber(m_doc->evaluationMicroseconds(), 0)));
    m_status[3]->setText(m_doc->isModified() ? tr("unsaved") : tr("saved"));
}

void MainWindow::updateLayoutBanner() {
    const core::Plan& plan = m_doc->plan();
    if (plan.valid) {
        m_banners.layout->hide();
        return;
    }
    QStringList lines;
    for (const core::Diagnostic& d : plan.diagnostics) {
        if (d.severity != core::Severity::Error)
            continue;
        lines << QStringLiteral("%1 <i>%2</i>")
                     .arg(QString::fromStdString(core::diagnosticMessage(d)).toHtmlEscaped(),
                          QString::fromStdString(core::diagnosticSuggestion(d)).toHtmlEscaped());
    }
    QString title = tr("This layout is invalid.");
    if (m_doc->isShowingStalePlan()) {
        const core::Layout& l = m_doc->shownPlan().layout;
        title += tr(" The charts still show the last valid layout (TP %1 × PP %2 × CP %3 × DP %4).")
                     .arg(l.tp)
                     .arg(l.pp)
                     .arg(l.cp)
                     .arg(l.dp);
    }
    m_banners.layout->showMessage(InlineBanner::Kind::Error, title, lines.join(QStringLiteral("<br>")));
}

void MainWindow::applyUnit() {
    const MemoryUnit unit = m_settings->memoryUnit();
    m_planView->setUnit(unit);
    m_explanation.panel->setUnit(unit);
    m_diagnostics.panel->setUnit(unit);
}

bool MainWindow::startup(const QString& scenarioPath) {
    bool ok = true;
    if (!scenarioPath.isEmpty()) {
        ok = m_files->loadPath(scenarioPath);
    } else if (m_options.persistentSettings) {
        const QString last = m_settings->lastScenario();
        if (!last.isEmpty() && QFileInfo::exists(last))
            m_files->loadPath(last);
    }
    if (m_autosave)
        offerRestore();
    return ok;
}

void MainWindow::offerRestore() {
    const auto snapshot = m_autosave->pending();
    if (!snapshot)
        return;
    m_autosave->setSuspended(true);
    const QString from = snapshot->originalPath.isEmpty() ? tr("an unsaved scenario")
                                                          : QFileInfo(snapshot->originalPath).fileName();
    const QString when = QLocale().toString(snapshot->savedAt.toLocalTime(), QLocale::ShortFormat);
    m_banners.restore->showMessage(
        InlineBanner::Kind::Info, tr("Layout Planner did not close normally last time."),
        tr("Unsaved changes to %1 (\"%2\", autosaved %3) can be restored.")
            .arg(from.toHtmlEscaped(), qs(core::scenarioName(snapshot->scenario)).toHtmlEscaped(), when));
    m_banners.restore->setClosable(false);
    m_banners.restore->addAction(QStringLiteral("restore"), tr("&Restore"),
                                 tr("Open the autosaved scenario, unsaved."));
    m_banners.restore->addAction(QStringLiteral("discard"), tr("&Discard"),
                                 tr("Delete the autosaved scenario."));
    const core::Scenario scenario = snapshot->scenario;
    const QString original = snapshot->originalPath;
    connect(
        m_banners.restore, &InlineBanner::actionTriggered, this,
        [this, scenario, original](const QString& id) {
            m_autosave->setSuspended(false);
            if (id == QLatin1String("restore")) {
                m_doc->resetTo(scenario, original, true);
                statusBar()->showMessage(tr("Restored the autosaved scenario; save it to keep it."), 5000);
                m_autosave->saveNow();
            } else {
                m_autosave->discard();
            }
        },
        Qt::SingleShotConnection);
}

bool MainWindow::renderScreenshot(const QString& path) {
    // Let the layouts, the charts' scenes and the docks settle before grabbing; show the MFU's
    // explanation whatever the (virtual) mouse pointer happens to hover.
    for (int i = 0; i < 5; ++i)
        QApplication::processEvents();
    m_explanation.panel->showKey(QStringLiteral("mfu"));
    if (QWidget* focus = QApplication::focusWidget())
        focus->clearFocus();
    for (int i = 0; i < 3; ++i)
        QApplication::processEvents();
    const QPixmap pixmap = grab();
    return pixmap.save(path, "PNG");
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (m_dockSizesPending) {
        m_dockSizesPending = false;
        // Narrow windows (laptops, projectors) give the side panels less so the tabs keep room; the
        // scenario panel never goes below its own minimum (its fields stay whole).
        const int w = width();
        resizeDocks({m_scenario.dock, m_diagnostics.dock},
                    {std::clamp(w * 27 / 100, 300, 380), std::clamp(w * 21 / 100, 240, 340)}, Qt::Horizontal);
        resizeDocks({m_diagnostics.dock, m_explanation.dock}, {height() * 3 / 10, height() * 7 / 10},
                    Qt::Vertical);
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!m_files->maybeSave()) {
        event->ignore();
        return;
    }
    m_settings->setGeometry(saveGeometry());
    m_settings->setWindowState(saveState());
    if (m_autosave && !m_autosave->isSuspended())
        m_autosave->discard(); // a clean exit leaves nothing to restore
    event->accept();
}

} // namespace lp::ui

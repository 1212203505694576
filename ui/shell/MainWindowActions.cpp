// MainWindow: actions, menus, the tool bar and the placeholder tabs.
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/ExplanationPanel.h"
#include "ui/scenario/LayoutSliders.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/Settings.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

namespace lp::ui {
namespace {
QIcon themed(const char* name, QStyle::StandardPixmap fallback, const QStyle* style) {
    return QIcon::fromTheme(QString::fromLatin1(name), style->standardIcon(fallback));
}

QAction* makeAction(QObject* parent, const QString& text, const QString& tip, const QKeySequence& key = {}) {
    auto* a = new QAction(text, parent);
    a->setToolTip(tip);
    a->setStatusTip(tip);
    if (!key.isEmpty())
        a->setShortcut(key);
    return a;
}
} // namespace

void MainWindow::createActions() {
    const QStyle* s = style();
    m_new = makeAction(this, tr("&New"), tr("Start a new scenario from the seed's worked example."),
                       QKeySequence::New);
    m_new->setIcon(themed("document-new", QStyle::SP_FileIcon, s));
    connect(m_new, &QAction::triggered, m_files, &FileController::newScenario);
    m_open = makeAction(this, tr("&Open…"), tr("Open a scenario file."), QKeySequence::Open);
    m_open->setIcon(themed("document-open", QStyle::SP_DialogOpenButton, s));
    connect(m_open, &QAction::triggered, m_files, &FileController::open);
    m_save = makeAction(this, tr("&Save"), tr("Save the scenario to its file."), QKeySequence::Save);
    m_save->setIcon(themed("document-save", QStyle::SP_DialogSaveButton, s));
    connect(m_save, &QAction::triggered, m_files, &FileController::save);
    m_saveAs =
        makeAction(this, tr("Save &As…"), tr("Save the scenario to a new file."), QKeySequence::SaveAs);
    connect(m_saveAs, &QAction::triggered, m_files, &FileController::saveAs);
    m_quit = makeAction(this, tr("&Quit"), tr("Close the window (asks about unsaved changes)."),
                        QKeySequence::Quit);
    connect(m_quit, &QAction::triggered, this, &QWidget::close);

    QUndoStack* stack = m_doc->undoStack();
    m_undo = stack->createUndoAction(this, tr("&Undo"));
    m_undo->setShortcut(QKeySequence::Undo);
    m_undo->setIcon(themed("edit-undo", QStyle::SP_ArrowBack, s));
    m_undo->setToolTip(tr("Undo the last change to the scenario."));
    m_redo = stack->createRedoAction(this, tr("&Redo"));
    m_redo->setShortcuts({QKeySequence::Redo, QKeySequence(Qt::CTRL | Qt::Key_Y)});
    m_redo->setIcon(themed("edit-redo", QStyle::SP_ArrowForward, s));
    m_redo->setToolTip(tr("Redo the change just undone."));
    connect(stack, &QUndoStack::undoTextChanged, this, [this](const QString& t) {
        m_undo->setToolTip(t.isEmpty() ? tr("Nothing to undo") : tr("Undo: %1").arg(t));
    });
    connect(stack, &QUndoStack::redoTextChanged, this, [this](const QString& t) {
        m_redo->setToolTip(t.isEmpty() ? tr("Nothing to redo") : tr("Redo: %1").arg(t));
    });

    m_keepGpus = makeAction(this, tr("&Keep GPU Count"),
                            tr("Changing TP, PP or CP rebalances DP to keep the cluster's GPU count."),
                            QKeySequence(Qt::CTRL | Qt::Key_K));
    m_keepGpus->setCheckable(true);
    m_keepGpus->setChecked(m_doc->keepGpuCount());
    connect(m_keepGpus, &QAction::toggled, this,
            [this](bool keep) { m_scenarioPanel->layoutSliders()->keepGpuCountBox()->setChecked(keep); });

    m_units = new QActionGroup(this);
    m_unitGB = makeAction(m_units, tr("Memory in &GB"), tr("Show memory in decimal gigabytes (10^9 bytes)."));
    m_unitGiB =
        makeAction(m_units, tr("Memory in G&iB"), tr("Show memory in binary gibibytes (2^30 bytes)."));
    for (QAction* a : {m_unitGB, m_unitGiB})
        a->setCheckable(true);
    m_unitGB->setChecked(m_settings->memoryUnit() == MemoryUnit::GB);
    m_unitGiB->setChecked(m_settings->memoryUnit() == MemoryUnit::GiB);
    connect(m_unitGB, &QAction::triggered, this, [this] { m_settings->setMemoryUnit(MemoryUnit::GB); });
    connect(m_unitGiB, &QAction::triggered, this, [this] { m_settings->setMemoryUnit(MemoryUnit::GiB); });
}

void MainWindow::createMenus() {
    m_fileMenu = menuBar()->addMenu(tr("&File"));
    m_fileMenu->setToolTipsVisible(true);
    m_fileMenu->addAction(m_new);
    m_fileMenu->addAction(m_open);
    m_fileMenu->addMenu(m_files->recentMenu());
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_save);
    m_fileMenu->addAction(m_saveAs);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quit);

    m_editMenu = menuBar()->addMenu(tr("&Edit"));
    m_editMenu->addAction(m_undo);
    m_editMenu->addAction(m_redo);
    m_editMenu->addSeparator();
    m_editMenu->addAction(m_keepGpus);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addAction(m_unitGB);
    m_viewMenu->addAction(m_unitGiB);
    m_viewMenu->addSeparator();
    for (QDockWidget* dock : {m_scenarioDock, m_diagnosticsDock, m_explanationDock}) {
        QAction* toggle = dock->toggleViewAction();
        toggle->setToolTip(tr("Show or hide the %1 panel.").arg(dock->windowTitle()));
        m_viewMenu->addAction(toggle);
    }

    m_toolsMenu = menuBar()->addMenu(tr("&Tools"));
    QAction* plan = m_toolsMenu->addAction(tr("Show the &Plan"));
    plan->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    plan->setToolTip(tr("Switch to the Plan tab."));
    connect(plan, &QAction::triggered, this, [this] { m_tabs->setCurrentIndex(0); });

    m_learnMenu = menuBar()->addMenu(tr("&Learn"));
    m_learnMenu->setToolTipsVisible(true);
    const std::pair<const char*, const char*> topics[] = {
        {QT_TR_NOOP("What is &MFU?"), "mfu"},
        {QT_TR_NOOP("What is the &effective batch?"), "effective_batch"},
        {QT_TR_NOOP("Why &16 bytes per parameter?"), "training_state_bytes"},
        {QT_TR_NOOP("What is the pipeline &bubble?"), "time.bubble"},
    };
    for (const auto& [text, key] : topics) {
        QAction* a = m_learnMenu->addAction(tr(text));
        const QString k = QString::fromLatin1(key);
        a->setToolTip(tr("Explain this figure of the current plan in the Explanation panel."));
        connect(a, &QAction::triggered, this, [this, k] {
            m_explanationDock->show();
            m_explanation->showKey(k);
        });
    }

    m_helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction* about = m_helpMenu->addAction(tr("&About Layout Planner"));
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(
            this, tr("About Layout Planner"),
            tr("<h3>Layout Planner %1</h3><p>Plans distributed training layouts of large language "
               "models: memory per GPU, step time and MFU for tensor, pipeline, data and context "
               "parallelism.</p>")
                .arg(QStringLiteral(LP_VERSION)));
    });
    QAction* aboutQt = m_helpMenu->addAction(tr("About &Qt"));
    connect(aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);
}

void MainWindow::createToolBar() {
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_new);
    bar->addAction(m_open);
    bar->addAction(m_save);
    bar->addSeparator();
    // Tool-bar twins of Undo/Redo with fixed texts: the menu's texts name the command, and a tool
    // button whose text changed on every slider step would re-lay out the tool bar every step.
    QUndoStack* stack = m_doc->undoStack();
    auto* undo = bar->addAction(m_undo->icon(), tr("Undo"), stack, &QUndoStack::undo);
    auto* redo = bar->addAction(m_redo->icon(), tr("Redo"), stack, &QUndoStack::redo);
    undo->setEnabled(stack->canUndo());
    redo->setEnabled(stack->canRedo());
    connect(stack, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
    connect(m_undo, &QAction::changed, undo, [this, undo] { undo->setToolTip(m_undo->toolTip()); });
    connect(m_redo, &QAction::changed, redo, [this, redo] { redo->setToolTip(m_redo->toolTip()); });
    undo->setToolTip(m_undo->toolTip());
    redo->setToolTip(m_redo->toolTip());
    // The tabs' and the File menu's tool buttons (Explore, Export) go before this separator when their
    // wiring installs them (insertToolBarAction).
    QAction* tools = bar->addSeparator();
    tools->setObjectName(QStringLiteral("toolBarToolsEnd"));
    auto* unitLabel = new QLabel(tr("Memory:"), bar);
    unitLabel->setContentsMargins(4, 0, 4, 0);
    bar->addWidget(unitLabel);
    bar->addAction(m_unitGB);
    bar->addAction(m_unitGiB);
    m_unitGB->setIconText(QStringLiteral("GB"));
    m_unitGiB->setIconText(QStringLiteral("GiB"));
}

void MainWindow::createPlaceholderTabs() {
    struct Placeholder {
        const char* title;
        const char* heading;
        const char* text;
    };
    const Placeholder pages[] = {
        {QT_TR_NOOP("&Explore"), QT_TR_NOOP("Layout explorer"),
         QT_TR_NOOP(
             "Search every valid layout of this scenario, rank them by step time, MFU, cost or headroom, "
             "and see the memory-against-MFU Pareto front.")},
        {QT_TR_NOOP("&Compare"), QT_TR_NOOP("Compare layouts"),
         QT_TR_NOOP("Pin two to four layouts and compare their memory, step time, MFU and diagnostics side "
                    "by side.")},
        {QT_TR_NOOP("C&alibrate"), QT_TR_NOOP("Calibrate"),
         QT_TR_NOOP(
             "Measure what your own GPUs achieve (GEMM, HBM and NCCL micro-benchmarks) or import a hardware "
             "profile measured elsewhere.")},
        {QT_TR_NOOP("&Validate"), QT_TR_NOOP("Validate"),
         QT_TR_NOOP("Compare the planner's predictions with published training runs.")},
    };
    for (const Placeholder& p : pages) {
        auto* page = new QWidget(m_tabs);
        auto* layout = new QVBoxLayout(page);
        auto* label =
            new QLabel(QStringLiteral("<h2>%1</h2><p>%2</p><p><i>%3</i></p>")
                           .arg(tr(p.heading), tr(p.text), tr("Not available in this version yet.")),
                       page);
        label->setWordWrap(true);
        label->setAlignment(Qt::AlignCenter);
        label->setMaximumWidth(560);
        layout->addStretch(1);
        layout->addWidget(label, 0, Qt::AlignHCenter);
        layout->addStretch(2);
        addTab(page, tr(p.title), tr(p.text));
    }
}

} // namespace lp::ui

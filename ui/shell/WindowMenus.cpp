#include "ui/shell/WindowMenus.h"

#include "ui/document/ScenarioDocument.h"
#include "ui/plan/ExplanationPanel.h"
#include "ui/plan/PlanView.h"
#include "ui/scenario/LayoutSliders.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/CommittedEditShortcuts.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/Settings.h"
#include "ui/shell/ShortcutsDialog.h"
#include "ui/shell/UserGuideViewer.h"

#include <QAction>
#include <QActionEvent>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QDockWidget>
#include <QEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoStack>

#include <utility>

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

WindowMenus::WindowMenus(MainWindow& window) : QObject(&window), m_window(window) {
    setObjectName(QStringLiteral("windowMenus"));
    createFileActions();
    createEditActions();
    createUnitActions();
    createFileMenu();
    createEditMenu();
    createViewMenu();
    createToolsMenu();
    createLearnMenu();
    createHelpMenu();
    createToolBar();
    connect(m_window.settings(), &Settings::memoryUnitChanged, this, &WindowMenus::showUnit);
}

void WindowMenus::createFileActions() {
    const QStyle* style = m_window.style();
    FileController* files = m_window.files();
    m_new = makeAction(this, tr("&New"), tr("Start a new scenario from the seed's worked example."),
                       QKeySequence::New);
    m_new->setIcon(themed("document-new", QStyle::SP_FileIcon, style));
    connect(m_new, &QAction::triggered, files, &FileController::newScenario);
    m_open = makeAction(this, tr("&Open…"), tr("Open a scenario file."), QKeySequence::Open);
    m_open->setIcon(themed("document-open", QStyle::SP_DialogOpenButton, style));
    connect(m_open, &QAction::triggered, files, &FileController::open);
    m_save = makeAction(this, tr("&Save"), tr("Save the scenario to its file."), QKeySequence::Save);
    m_save->setIcon(themed("document-save", QStyle::SP_DialogSaveButton, style));
    connect(m_save, &QAction::triggered, files, &FileController::save);
    m_saveAs =
        makeAction(this, tr("Save &As…"), tr("Save the scenario to a new file."), QKeySequence::SaveAs);
    connect(m_saveAs, &QAction::triggered, files, &FileController::saveAs);
    m_quit = makeAction(this, tr("&Quit"), tr("Close the window (asks about unsaved changes)."),
                        QKeySequence::Quit);
    connect(m_quit, &QAction::triggered, &m_window, &QWidget::close);
}

void WindowMenus::createEditActions() {
    const QStyle* style = m_window.style();
    QUndoStack* stack = m_window.document()->undoStack();
    m_undo = stack->createUndoAction(this, tr("&Undo"));
    m_undo->setShortcut(QKeySequence::Undo);
    new CommittedEditShortcuts(this); // Ctrl+Z reaches these actions from a field once its edit is committed
    m_undo->setIcon(themed("edit-undo", QStyle::SP_ArrowBack, style));
    m_undo->setToolTip(tr("Undo the last change to the scenario."));
    m_redo = stack->createRedoAction(this, tr("&Redo"));
    // The platform's Redo keys and Ctrl+Y, once each: a key twice on one action is ambiguous and does
    // nothing.
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Y)))
        redoKeys << QKeySequence(Qt::CTRL | Qt::Key_Y);
    m_redo->setShortcuts(redoKeys);
    m_redo->setIcon(themed("edit-redo", QStyle::SP_ArrowForward, style));
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
    m_keepGpus->setChecked(m_window.document()->keepGpuCount());
    LayoutSliders* sliders = m_window.scenarioPanel()->layoutSliders();
    connect(m_keepGpus, &QAction::toggled, this,
            [sliders](bool keep) { sliders->keepGpuCountBox()->setChecked(keep); });
    connect(sliders, &LayoutSliders::keepGpuCountToggled, m_keepGpus, &QAction::setChecked);
}

void WindowMenus::createUnitActions() {
    Settings* settings = m_window.settings();
    m_units = new QActionGroup(this);
    m_unitGB = makeAction(m_units, tr("Memory in &GB"), tr("Show memory in decimal gigabytes (10^9 bytes)."));
    m_unitGiB =
        makeAction(m_units, tr("Memory in G&iB"), tr("Show memory in binary gibibytes (2^30 bytes)."));
    for (QAction* a : {m_unitGB, m_unitGiB})
        a->setCheckable(true);
    showUnit(settings->memoryUnit());
    connect(m_unitGB, &QAction::triggered, this, [settings] { settings->setMemoryUnit(MemoryUnit::GB); });
    connect(m_unitGiB, &QAction::triggered, this, [settings] { settings->setMemoryUnit(MemoryUnit::GiB); });
}

void WindowMenus::showUnit(MemoryUnit unit) {
    m_unitGB->setChecked(unit == MemoryUnit::GB);
    m_unitGiB->setChecked(unit == MemoryUnit::GiB);
}

void WindowMenus::createFileMenu() {
    m_fileMenu = m_window.menuBar()->addMenu(tr("&File"));
    m_fileMenu->setToolTipsVisible(true);
    m_fileMenu->addAction(m_new);
    m_fileMenu->addAction(m_open);
    m_fileMenu->addMenu(m_window.files()->recentMenu());
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_save);
    m_fileMenu->addAction(m_saveAs);
    m_quitSeparator = m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quit);
    m_fileMenu->installEventFilter(this);
}

bool WindowMenus::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_fileMenu && event->type() == QEvent::ActionAdded) {
        const QAction* added = static_cast<QActionEvent*>(event)->action();
        if (added != m_quit && added != m_quitSeparator) {
            m_fileMenu->removeAction(m_quitSeparator);
            m_fileMenu->removeAction(m_quit);
            m_fileMenu->addAction(m_quitSeparator);
            m_fileMenu->addAction(m_quit);
        }
    }
    return QObject::eventFilter(watched, event);
}

void WindowMenus::createEditMenu() {
    QMenu* edit = m_window.menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_undo);
    edit->addAction(m_redo);
    edit->addSeparator();
    edit->addAction(m_keepGpus);
}

void WindowMenus::createViewMenu() {
    QMenu* view = m_window.menuBar()->addMenu(tr("&View"));
    view->addAction(m_unitGB);
    view->addAction(m_unitGiB);
    view->addSeparator();
    for (QDockWidget* dock :
         {m_window.scenarioDock(), m_window.diagnosticsDock(), m_window.explanationDock()}) {
        QAction* toggle = dock->toggleViewAction();
        toggle->setToolTip(tr("Show or hide the %1 panel.").arg(dock->windowTitle()));
        view->addAction(toggle);
    }
}

void WindowMenus::createToolsMenu() {
    m_toolsMenu = m_window.menuBar()->addMenu(tr("&Tools"));
    QAction* plan = m_toolsMenu->addAction(tr("Show the &Plan"));
    plan->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    plan->setToolTip(tr("Switch to the Plan tab."));
    connect(plan, &QAction::triggered, this,
            [this] { m_window.tabs()->setCurrentWidget(m_window.planView()); });
}

void WindowMenus::createLearnMenu() {
    m_learnMenu = m_window.menuBar()->addMenu(tr("&Learn"));
    m_learnMenu->setToolTipsVisible(true);
    const std::pair<const char*, const char*> topics[] = {
        {QT_TR_NOOP("What is &MFU?"), "mfu"},
        {QT_TR_NOOP("What is the &effective batch?"), "effective_batch"},
        {QT_TR_NOOP("Why &16 bytes per parameter?"), "training_state_bytes"},
        {QT_TR_NOOP("What is the pipeline &bubble?"), "time.bubble"},
    };
    for (const auto& [text, key] : topics) {
        QAction* a = m_learnMenu->addAction(tr(text));
        a->setToolTip(tr("Explain this figure of the current plan in the Explanation panel."));
        connect(a, &QAction::triggered, this, [this, k = QString::fromLatin1(key)] {
            m_window.explanationDock()->show();
            m_window.explanationPanel()->showKey(k);
        });
    }
}

void WindowMenus::createHelpMenu() {
    QMenu* help = m_window.menuBar()->addMenu(tr("&Help"));
    help->setToolTipsVisible(true);
    m_userGuide =
        makeAction(this, tr("&User Guide"), tr("Read the user guide: every part of the window explained."),
                   QKeySequence::HelpContents);
    m_userGuide->setObjectName(QStringLiteral("actionUserGuide"));
    connect(m_userGuide, &QAction::triggered, this, &WindowMenus::showUserGuide);
    help->addAction(m_userGuide);
    m_shortcuts =
        makeAction(this, tr("&Keyboard Shortcuts"), tr("List the commands that have keys, and their keys."),
                   QKeySequence(Qt::CTRL | Qt::Key_Slash));
    m_shortcuts->setObjectName(QStringLiteral("actionShortcuts"));
    connect(m_shortcuts, &QAction::triggered, this, &WindowMenus::showShortcuts);
    help->addAction(m_shortcuts);
    help->addSeparator();
    QAction* about = help->addAction(tr("&About Layout Planner"));
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(
            &m_window, tr("About Layout Planner"),
            tr("<h3>Layout Planner %1</h3><p>Plans distributed training layouts of large language models: "
               "memory per GPU, step time and MFU for tensor, pipeline, data and context parallelism.</p>")
                .arg(QStringLiteral(LP_VERSION)));
    });
    QAction* aboutQt = help->addAction(tr("About &Qt"));
    connect(aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);
}

void WindowMenus::showUserGuide() {
    if (!m_guideViewer) {
        const QString guide = UserGuideViewer::findGuide();
        if (guide.isEmpty()) {
            QMessageBox::information(&m_window, tr("User Guide"),
                                     tr("The user guide (docs/user-guide.md) was not found. Looked in:\n%1")
                                         .arg(UserGuideViewer::guideCandidates().join(QLatin1Char('\n'))));
            return;
        }
        m_guideViewer = new UserGuideViewer(guide, &m_window);
    }
    m_guideViewer->show();
    m_guideViewer->raise();
    m_guideViewer->activateWindow();
}

void WindowMenus::showShortcuts() {
    if (!m_shortcutsDialog)
        m_shortcutsDialog = new ShortcutsDialog(m_window.menuBar(), &m_window);
    m_shortcutsDialog->refresh();
    m_shortcutsDialog->show();
    m_shortcutsDialog->raise();
    m_shortcutsDialog->activateWindow();
}

void WindowMenus::createToolBar() {
    m_toolBar = m_window.addToolBar(tr("Main"));
    m_toolBar->setObjectName(QStringLiteral("mainToolBar"));
    m_toolBar->setMovable(false);
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->addAction(m_new);
    m_toolBar->addAction(m_open);
    m_toolBar->addAction(m_save);
    m_toolBar->addSeparator();
    addUndoRedoButtons();
    m_toolButtonsEnd = m_toolBar->addSeparator();
    auto* unitLabel = new QLabel(tr("Memory:"), m_toolBar);
    unitLabel->setContentsMargins(4, 0, 4, 0);
    m_toolBar->addWidget(unitLabel);
    m_toolBar->addAction(m_unitGB);
    m_toolBar->addAction(m_unitGiB);
    m_unitGB->setIconText(QStringLiteral("GB"));
    m_unitGiB->setIconText(QStringLiteral("GiB"));
}

// Tool-bar twins of Undo/Redo with fixed texts: the menu's texts name the command, and a tool button
// whose text changed on every slider step would re-lay out the tool bar every step.
void WindowMenus::addUndoRedoButtons() {
    QUndoStack* stack = m_window.document()->undoStack();
    auto* undo = m_toolBar->addAction(m_undo->icon(), tr("Undo"), stack, &QUndoStack::undo);
    auto* redo = m_toolBar->addAction(m_redo->icon(), tr("Redo"), stack, &QUndoStack::redo);
    undo->setEnabled(stack->canUndo());
    redo->setEnabled(stack->canRedo());
    connect(stack, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
    connect(m_undo, &QAction::changed, undo, [this, undo] { undo->setToolTip(m_undo->toolTip()); });
    connect(m_redo, &QAction::changed, redo, [this, redo] { redo->setToolTip(m_redo->toolTip()); });
    undo->setToolTip(m_undo->toolTip());
    redo->setToolTip(m_redo->toolTip());
}

void WindowMenus::addToolButton(QAction* action) {
    if (!m_toolButtonsStarted) { // a separator from Undo/Redo before the first one
        m_toolBar->insertSeparator(m_toolButtonsEnd);
        m_toolButtonsStarted = true;
    }
    m_toolBar->insertAction(m_toolButtonsEnd, action);
}

} // namespace lp::ui

// Presentation mode: fonts scale app-wide (also the widgets with a size of their own), chart lines
// thicken, the palette turns high-contrast, advanced controls hide with their labels, and leaving
// restores everything. Also the --presentation command-line option.
#include "WindowTestSupport.h"
#include "core/io/Presets.h"
#include "ui/charts/MemoryChart.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/DiagnosticsModel.h"
#include "ui/plan/PlanView.h"
#include "ui/scenario/LayoutSliders.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/TeachingMode.h"
#include "ui/teach/PresentationMode.h"
#include "ui/teach/Tour.h"
#include "ui/teach/TourPanel.h"
#include "ui/widgets/PresentationStyle.h"
#include "ui/widgets/StepControl.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QLabel>
#include <QListView>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QUndoStack>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>

#include <memory>

using namespace lp;

class TestPresentation : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;
    ui::PresentationMode* mode() const { return ui::TeachingMode::of(*m_window)->presentation(); }

    QLineSeries* capacityLine() const {
        for (QAbstractSeries* s : m_window->planView()->memoryChart()->chartView()->chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(s))
                return line;
        return nullptr;
    }
    QLabel* labelFor(QWidget* buddy) const {
        for (QLabel* l : m_window->findChildren<QLabel*>())
            if (l->buddy() == buddy)
                return l;
        return nullptr;
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void init() {
        m_window = test::makeQuietWindow();
        ui::TeachingMode::install(*m_window);
        // Full screen means little on the offscreen platform; the rest is what is tested.
        ui::PresentationOptions o = mode()->options();
        o.fullScreen = false;
        mode()->setOptions(o);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup() {
        mode()->setActive(false);
        m_window->document()->undoStack()->setClean();
        m_window->close();
        m_window.reset();
    }

    void optionsComeFromTheResources() {
        const ui::PresentationOptions o = ui::PresentationOptions::fromResources();
        QCOMPARE(o.fontScale, 1.6);
        QCOMPARE(o.lineScale, 2.0);
        QVERIFY(o.advanced.contains(QStringLiteral("mainToolBar")));
        // The layout rows are never hidden: the scenario's layout shows whole.
        for (const char* name : {"slider_CP", "spin_CP", "slider_EP", "spin_EP", "expertTp",
                                 "slider_virtualstages", "spin_virtualstages"})
            QVERIFY2(!o.advanced.contains(QLatin1String(name)), name);
    }

    void scalesFontsAppWide() {
        const double appBefore = QApplication::font().pointSizeF();
        const double labelBefore = m_window->statusLabel(1)->font().pointSizeF();
        auto* headline = m_window->findChild<QLabel*>(QStringLiteral("memoryVerdict"));
        QVERIFY(headline);
        // A widget with a size of its own (the chart's title is 1.1x the font it was made with).
        QLabel* title = nullptr;
        for (QLabel* l : m_window->planView()->memoryChart()->findChildren<QLabel*>())
            if (l->testAttribute(Qt::WA_SetFont) && (l->font().resolveMask() & QFont::SizeResolved))
                title = l;
        QVERIFY(title);
        const double titleBefore = title->font().pointSizeF();

        ui::TeachingMode::of(*m_window)->presentationAction()->trigger();
        QVERIFY(mode()->isActive());
        QVERIFY(ui::presentation::isActive());
        QCOMPARE(ui::presentation::fontScale(), 1.6);
        QCOMPARE(ui::presentation::lineScale(), 2.0);
        QCOMPARE(QApplication::font().pointSizeF(), appBefore * 1.6);
        QCOMPARE(m_window->statusLabel(1)->font().pointSizeF(), labelBefore * 1.6);
        QCOMPARE(title->font().pointSizeF(), titleBefore * 1.6);
        QVERIFY(headline->fontInfo().pointSizeF() > appBefore * 1.3);

        mode()->setActive(false);
        QCOMPARE(QApplication::font().pointSizeF(), appBefore);
        QCOMPARE(title->font().pointSizeF(), titleBefore);
        QCOMPARE(m_window->statusLabel(1)->font().pointSizeF(), labelBefore);
        QCOMPARE(ui::presentation::fontScale(), 1.0);
        QVERIFY(!ui::presentation::isActive());
        QVERIFY(!ui::TeachingMode::of(*m_window)->presentationAction()->isChecked());
    }

    void thickensChartLinesAndKeepsThemThick() {
        QLineSeries* line = capacityLine();
        QVERIFY(line);
        const double before = line->pen().widthF();
        mode()->setActive(true);
        QCOMPARE(line->pen().widthF(), before * 2.0);
        // The chart rebuilds on every plan change; the lines stay thick.
        m_window->document()->setLayoutValue(core::LayoutAxis::Accumulation, 8);
        QCOMPARE(capacityLine()->pen().widthF(), capacityLine()->property("lpBaseWidth").toDouble() * 2.0);
        mode()->setActive(false);
        QVERIFY(capacityLine()->pen().widthF() < before * 2.0);
    }

    void highContrastAndAdvancedControlsHidden() {
        // A control named in the options hides with its label (here CP, for the test's sake).
        ui::PresentationOptions o = mode()->options();
        o.advanced = QStringList{QStringLiteral("slider_CP"), QStringLiteral("spin_CP")};
        mode()->setOptions(o);
        QWidget* cp = m_window->findChild<QWidget*>(QStringLiteral("slider_CP"));
        QWidget* cpSpin = m_window->findChild<QWidget*>(QStringLiteral("spin_CP"));
        QVERIFY(cp && cpSpin);
        QLabel* cpLabel = labelFor(cpSpin);
        QVERIFY(cpLabel);
        QVERIFY(cp->isVisible() && cpLabel->isVisible());
        const QPalette before = QApplication::palette();
        mode()->setActive(true);
        QCOMPARE(QApplication::palette().color(QPalette::Text), QColor(Qt::black));
        QCOMPARE(QApplication::palette().color(QPalette::Base), QColor(Qt::white));
        QVERIFY(!cp->isVisible());
        QVERIFY(!cpSpin->isVisible());
        QVERIFY(!cpLabel->isVisible());
        QVERIFY(mode()->hiddenWidgets().contains(cpLabel));
        QVERIFY(
            m_window->findChild<QWidget*>(QStringLiteral("slider_TP"))->isVisible()); // the main axes stay
        QTest::keyClick(m_window.get(), Qt::Key_Escape); // Escape leaves presentation mode
        QVERIFY(!mode()->isActive());
        QVERIFY(cp->isVisible() && cpLabel->isVisible());
        QCOMPARE(QApplication::palette().color(QPalette::Text), before.color(QPalette::Text));
    }

    void f5TogglesAndFullScreenIsRestored() {
        ui::PresentationOptions o = mode()->options();
        o.fullScreen = true;
        mode()->setOptions(o);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        QVERIFY(mode()->isActive());
        QVERIFY(m_window->windowState() & Qt::WindowFullScreen);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        QVERIFY(!mode()->isActive());
        QVERIFY(!(m_window->windowState() & Qt::WindowFullScreen));
    }

    void closingTheWindowInPresentationModeRestoresTheApplication() {
        const double appBefore = QApplication::font().pointSizeF();
        const QColor textBefore = QApplication::palette().color(QPalette::Text);
        mode()->setActive(true);
        m_window->document()->undoStack()->setClean();
        m_window.reset(); // destroyed while presenting
        QCOMPARE(QApplication::font().pointSizeF(), appBefore);
        QCOMPARE(QApplication::palette().color(QPalette::Text), textBefore);
        QCOMPARE(ui::presentation::lineScale(), 1.0);
        init(); // for cleanup()
    }

    void theTourMovesBesideTheChartsAndBack() {
        ui::TeachingMode* t = ui::TeachingMode::of(*m_window);
        t->startTour(0);
        QCOMPARE(m_window->dockWidgetArea(t->dock()), Qt::BottomDockWidgetArea);
        QVERIFY(!t->panel()->isVertical());
        mode()->setActive(true);
        QCOMPARE(m_window->dockWidgetArea(t->dock()), Qt::RightDockWidgetArea);
        QVERIFY(t->panel()->isVertical());
        QVERIFY(t->dock()->isVisible());
        // Looking at the Explanation tab beside it does not end the tour.
        auto* explanation = m_window->findChild<QDockWidget*>(QStringLiteral("explanationDock"));
        explanation->raise();
        QCoreApplication::processEvents();
        QVERIFY(t->tour()->isActive());
        t->dock()->raise();
        mode()->setActive(false);
        QCOMPARE(m_window->dockWidgetArea(t->dock()), Qt::BottomDockWidgetArea);
        QVERIFY(!t->panel()->isVertical());
        t->tour()->stop();
    }

    // The larger fonts widen the side panels; leaving gives them back their widths, so the pages between
    // them keep theirs and the tabs stay in view at 1280x720.
    void leavingGivesTheSidePanelsBackTheirWidths() {
        m_window->resize(1280, 720);
        QTest::qWait(50);
        QList<QDockWidget*> docks;
        QList<int> before;
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>())
            if (dock->isVisible() && m_window->dockWidgetArea(dock) == Qt::LeftDockWidgetArea)
                docks << dock;
        QVERIFY(!docks.isEmpty());
        QList<int> narrowest; // as narrow as they go: the larger fonts cannot but widen them
        for (QDockWidget* dock : docks)
            narrowest << dock->minimumSizeHint().width();
        m_window->resizeDocks(docks, narrowest, Qt::Horizontal);
        QTest::qWait(50);
        for (QDockWidget* dock : docks)
            before << dock->width();
        mode()->setActive(true);
        m_window->resize(1280, 720);
        QTest::qWait(50);
        bool widened = false;
        for (int i = 0; i < docks.size(); ++i)
            widened = widened || docks[i]->width() > before[i];
        QVERIFY(widened); // else this test proves nothing
        mode()->setActive(false);
        QTest::qWait(50);
        for (int i = 0; i < docks.size(); ++i)
            QCOMPARE(docks[i]->width(), before[i]);
    }

    // Entering and leaving say so in the status bar, and the profile's label gives way to the message there
    // (both were drawn on top of each other).
    void theStatusMessageHasTheBarToItself() {
        for (const bool fullScreen : {false, true}) {
            ui::PresentationOptions o = mode()->options();
            o.fullScreen = fullScreen;
            mode()->setOptions(o);
            for (int i = 0; i < 2; ++i) {
                ui::TeachingMode::of(*m_window)->presentationAction()->trigger();
                QTest::qWait(100);
                QVERIFY(!m_window->statusBar()->currentMessage().isEmpty());
                QVERIFY2(!m_window->statusLabel(0)->isVisible(), fullScreen ? "full screen" : "window");
            }
            m_window->statusBar()->clearMessage();
            QVERIFY(m_window->statusLabel(0)->isVisible());
        }
    }

    void commandLineStartsPresentationMode() {
        QCommandLineParser parser;
        parser.addOption(QCommandLineOption(QStringLiteral("screenshot"), QString(), QStringLiteral("FILE")));
        ui::TeachingMode::addCommandLineOptions(parser);
        QVERIFY(parser.parse({QStringLiteral("layout-planner"), QStringLiteral("--presentation"),
                              QStringLiteral("--screenshot"), QStringLiteral("x.png")}));
        const double appBefore = QApplication::font().pointSizeF();
        QVERIFY(ui::TeachingMode::of(*m_window)->applyCommandLine(parser));
        QVERIFY(mode()->isActive());
        QVERIFY(!(m_window->windowState() & Qt::WindowFullScreen)); // a screenshot keeps its size
        QCOMPARE(QApplication::font().pointSizeF(), appBefore * 1.6);
        const QString out = m_dir.filePath(QStringLiteral("presentation.png"));
        QVERIFY(m_window->renderScreenshot(out));
        QCOMPARE(QImage(out).size(), m_window->size() * m_window->devicePixelRatio());
    }
    // On a projector (1280x720, the larger fonts) every diagnostic wraps whole: each row as tall as its
    // message and suggestion need in the font shown.
    void diagnosticsWrapWholeInLargeFonts() {
        m_window->resize(1280, 720);
        QTest::qWait(50);
        auto* view = m_window->findChild<QListView*>(QStringLiteral("diagnostics"));
        QVERIFY(view && view->model()->rowCount() > 0);
        mode()->setActive(true);
        m_window->resize(1280, 720);
        QTest::qWait(100);
        const QFontMetrics fm(view->font());
        for (int row = 0; row < view->model()->rowCount(); ++row) {
            const QModelIndex index = view->model()->index(row, 0);
            const QRect shown = view->visualRect(index);
            const QRect box(0, 0, shown.width() - 3 * 6 - 16, 100000); // the delegate's margins and icon
            const int needed =
                fm.boundingRect(box, Qt::TextWordWrap, index.data().toString()).height() + 3 +
                fm.boundingRect(box, Qt::TextWordWrap,
                                QStringLiteral("→ ") +
                                    index.data(ui::DiagnosticsModel::SuggestionRole).toString())
                    .height() +
                2 * 6;
            QVERIFY2(
                shown.height() >= needed,
                qPrintable(QStringLiteral("row %1: %2 px for %3").arg(row).arg(shown.height()).arg(needed)));
        }
    }

    // On a 1280x720 projector every tab of the full window is in view with its whole title (the tab bar keeps
    // a little under the normal font), none hidden behind the bar's scroll arrows.
    void everyTabInViewOnAProjector() {
        auto full = test::makeFullQuietWindow();
        ui::PresentationMode* presentation = ui::TeachingMode::of(*full)->presentation();
        ui::PresentationOptions o = presentation->options();
        o.fullScreen = false;
        presentation->setOptions(o);
        full->show();
        QVERIFY(QTest::qWaitForWindowExposed(full.get()));
        presentation->setActive(true);
        full->resize(1280, 720);
        QTest::qWait(100);
        QTabBar* bar = full->tabs()->tabBar();
        QVERIFY(bar->count() >= 8);
        for (int i = 0; i < bar->count(); ++i) {
            const QString title = bar->tabText(i).remove(QLatin1Char('&'));
            QVERIFY2(bar->tabRect(i).right() < bar->width(), qPrintable(title));
            QVERIFY2(bar->tabRect(i).width() > bar->fontMetrics().horizontalAdvance(title),
                     qPrintable(title));
        }
        for (QToolButton* arrow : bar->findChildren<QToolButton*>())
            QVERIFY(!arrow->isVisible());
        presentation->setActive(false);
        full->document()->undoStack()->setClean();
        full->close();
    }

    // The scenario panel's choice boxes show their whole current text in presentation mode, on a 1280x720
    // projector and at 1920x1080: each field has the panel's width. (The model's long name,
    // "Llama-2-70B-class (seed example) · 69.0 B", is wider than the panel can be without the pages scrolling
    // sideways.)
    void comboBoxesShowTheirWholeText() {
        const auto cut = [this] {
            QStringList out;
            for (QComboBox* box : m_window->scenarioPanel()->findChildren<QComboBox*>()) {
                if (!box->isVisible() || box->currentText().isEmpty() ||
                    box->objectName() == QLatin1String("modelPreset"))
                    continue;
                QStyleOptionComboBox opt;
                opt.initFrom(box);
                const QRect field = box->style()->subControlRect(QStyle::CC_ComboBox, &opt,
                                                                 QStyle::SC_ComboBoxEditField, box);
                if (box->fontMetrics().horizontalAdvance(box->currentText()) > field.width())
                    out << box->currentText();
            }
            return out;
        };
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            m_window->resize(size);
            QTest::qWait(50);
            mode()->setActive(true);
            m_window->resize(size);
            QTRY_VERIFY2(cut().isEmpty(), qPrintable(cut().join(QStringLiteral(" | "))));
            mode()->setActive(false);
        }
    }

    // The layout rows follow one rule in and out of presentation mode: all shown; one that does not apply
    // (EP and expert TP for a dense model, virtual stages without a pipeline) disabled, its tooltip says why.
    void layoutRowsFollowOneRule() {
        ui::LayoutSliders* sliders = m_window->scenarioPanel()->layoutSliders();
        const auto row = [sliders](core::LayoutAxis axis) { return sliders->control(axis)->spinBox(); };
        const auto verifyAllShown = [&] {
            for (const core::LayoutAxis axis :
                 {core::LayoutAxis::Cp, core::LayoutAxis::Ep, core::LayoutAxis::Vpp}) {
                QVERIFY(row(axis)->isVisible());
                QVERIFY(sliders->control(axis)->slider()->isVisible());
                QVERIFY(labelFor(row(axis))->isVisible());
            }
            QVERIFY(sliders->expertTpBox()->isVisible());
            QVERIFY(labelFor(sliders->expertTpBox())->isVisible());
        };
        const auto verifyApplies = [&](QWidget* w, bool applies) {
            QCOMPARE(w->isEnabled(), applies);
            QCOMPARE(w->toolTip().startsWith(QStringLiteral("Not used")), !applies);
        };
        verifyAllShown();
        mode()->setActive(true);
        verifyAllShown();
        QVERIFY(!m_window->document()->scenario().model.isMoe());
        verifyApplies(row(core::LayoutAxis::Ep), false);
        verifyApplies(sliders->expertTpBox(), false);
        verifyApplies(row(core::LayoutAxis::Cp), true);
        verifyApplies(row(core::LayoutAxis::Vpp), m_window->document()->scenario().layout.pp > 1);
        m_window->document()->setLayoutValue(core::LayoutAxis::Pp, 1);
        verifyApplies(row(core::LayoutAxis::Vpp), false);
        core::Scenario moe = m_window->document()->scenario();
        moe.model = core::findModelPreset("mixtral-8x7b")->model;
        m_window->document()->edit(moe, QStringLiteral("model"));
        verifyApplies(row(core::LayoutAxis::Ep), true);
        verifyApplies(sliders->expertTpBox(), m_window->document()->scenario().layout.tp > 1);
        verifyAllShown();
        mode()->setActive(false);
        verifyAllShown();
    }
};

QTEST_MAIN(TestPresentation)
#include "test_presentation.moc"

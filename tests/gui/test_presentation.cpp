// Presentation mode: fonts scale app-wide (also the widgets with a size of their own), chart lines
// thicken, the palette turns high-contrast, advanced controls hide with their labels, and leaving
// restores everything. Also the --presentation command-line option.
#include "WindowTestSupport.h"
#include "ui/charts/MemoryChart.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/PlanView.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/TeachingMode.h"
#include "ui/teach/PresentationMode.h"
#include "ui/teach/Tour.h"
#include "ui/teach/TourPanel.h"
#include "ui/widgets/PresentationStyle.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QLabel>
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
        QVERIFY(o.advanced.contains(QStringLiteral("slider_CP")));
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
};

QTEST_MAIN(TestPresentation)
#include "test_presentation.moc"

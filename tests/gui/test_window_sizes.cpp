// Small screens: the window with every tab fits a 1366x768 laptop and a 1280x720 projector, also in
// presentation mode; tab pages scroll instead of growing the window; the scenario panel never clips
// its fields; the key figures reflow to two columns rather than cut a value; tool rows wrap.
#include "WindowTestSupport.h"
#include "ui/ExploreWiring.h"
#include "ui/FigureLabel.h"
#include "ui/FileController.h"
#include "ui/FlowLayout.h"
#include "ui/InteropWiring.h"
#include "ui/KeyFigures.h"
#include "ui/MainWindow.h"
#include "ui/MemoryChart.h"
#include "ui/PlanView.h"
#include "ui/PresentationMode.h"
#include "ui/ScenarioDocument.h"
#include "ui/ScenarioPanel.h"
#include "ui/TeachingWiring.h"
#include "ui/ToolsWiring.h"

#include <QAction>
#include <QApplication>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QtCharts/QChartView>
#include <memory>

using namespace lp;

class TestWindowSizes : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;

    static void settle() {
        for (int i = 0; i < 5; ++i)
            QApplication::processEvents();
    }

    void showTabOf(QWidget* w) {
        QTabWidget* tabs = m_window->tabs();
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->widget(i)->isAncestorOf(w))
                tabs->setCurrentIndex(i);
    }

    // What the window needs at the least: beyond the screen, the window manager cannot shrink it.
    void verifyFits(const QSize& screen) {
        const QSize need = m_window->minimumSizeHint().expandedTo(m_window->minimumSize());
        if (need.width() > screen.width() || need.height() > screen.height())
            QFAIL(qPrintable(QStringLiteral("the window needs %1x%2, more than a %3x%4 screen")
                                 .arg(need.width())
                                 .arg(need.height())
                                 .arg(screen.width())
                                 .arg(screen.height())));
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void init() {
        m_window = test::makeQuietWindow();
        ui::ScenarioDocument& doc = *m_window->document();
        ui::installExploreTabs(*m_window, doc);
        ui::installToolTabs(*m_window, doc);
        ui::installInterop(*m_window, doc);
        ui::installTeaching(*m_window, doc);
    }

    void cleanup() {
        if (ui::teachingOf(*m_window)->presentation->isActive())
            ui::teachingOf(*m_window)->presentation->setActive(false);
        m_window->close();
        m_window.reset();
    }

    void fitsALaptopAndAProjector() {
        QTabWidget* tabs = m_window->tabs();
        QVERIFY(tabs->count() >= 7);
        m_window->resize(1280, 720);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            settle();
            verifyFits({1280, 720});
            QCOMPARE(m_window->size(), QSize(1280, 720));
        }
        QChartView* memory = m_window->planView()->memoryChart()->chartView();
        const int plotBefore = memory->minimumHeight();
        ui::teachingOf(*m_window)->presentationAction->trigger();  // fonts x1.6
        QVERIFY(ui::teachingOf(*m_window)->presentation->isActive());
        settle();
        verifyFits({1280, 720});
        // The memory chart grows with the font (its axis labels would elide), the page scrolls for it.
        QVERIFY(memory->minimumHeight() > plotBefore * 5 / 4);
    }

    void tabPagesScrollInsteadOfGrowingTheWindow() {
        QTabWidget* tabs = m_window->tabs();
        for (int i = 0; i < tabs->count(); ++i) {
            QWidget* page = tabs->widget(i);
            auto* scroll = page->findChild<QScrollArea*>(QStringLiteral("pageScroll"), Qt::FindDirectChildrenOnly);
            QVERIFY2(scroll, qPrintable(tabs->tabText(i)));
            QVERIFY(scroll->widgetResizable());
            // The content wants more room than a small window's tab area has; the page does not.
            QVERIFY2(page->minimumSizeHint().width() < 300, qPrintable(tabs->tabText(i)));
            QVERIFY2(page->minimumSizeHint().height() < 300, qPrintable(tabs->tabText(i)));
        }
    }

    void theScenarioPanelKeepsItsFieldsWhole() {
        m_window->resize(1280, 720);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        settle();
        auto* panel = m_window->findChild<ui::ScenarioPanel*>(QStringLiteral("scenarioPanel"));
        QVERIFY(panel);
        const int contentNeeds = panel->widget()->minimumSizeHint().width();
        QVERIFY(panel->viewport()->width() >= contentNeeds);
        QVERIFY(panel->widget()->width() >= contentNeeds);
        // The tabs keep more room than either side panel.
        QVERIFY(m_window->tabs()->width() > panel->width());
    }

    void oneAxisStacksItsChartsWhereTheirLegendsWouldBeCut() {
        auto* mfu = m_window->findChild<QWidget*>(QStringLiteral("sweepMfuChart"));
        auto* memory = m_window->findChild<QWidget*>(QStringLiteral("sweepMemoryChart"));
        QVERIFY(mfu && memory);
        showTabOf(mfu);
        m_window->resize(1920, 1080);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        settle();
        QCOMPARE(memory->y(), mfu->y()); // side by side
        QVERIFY(memory->x() > mfu->x());
        m_window->resize(1280, 720);
        settle();
        QVERIFY(memory->y() > mfu->y()); // one above the other, each the page's width
        QCOMPARE(memory->x(), mfu->x());
    }

    void calibrateStacksItsColumnsInANarrowWindow() {
        QTabWidget* tabs = m_window->tabs();
        auto* splitter = m_window->findChild<QSplitter*>(QStringLiteral("calibrateSplitter"));
        QVERIFY(splitter);
        showTabOf(splitter);
        m_window->resize(1920, 1080);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        settle();
        QCOMPARE(splitter->orientation(), Qt::Horizontal);
        m_window->resize(1280, 720);
        settle();
        QCOMPARE(splitter->orientation(), Qt::Vertical);
        // Stacked, nothing is wider than the page: no sideways scrolling.
        auto* scroll = tabs->currentWidget()->findChild<QScrollArea*>(QStringLiteral("pageScroll"));
        QVERIFY(scroll);
        QVERIFY(scroll->widget()->width() <= scroll->viewport()->width());
        m_window->resize(1920, 1080);
        settle();
        QCOMPARE(splitter->orientation(), Qt::Horizontal);
    }

    void keyFiguresTakeTwoColumnsWhenThreeWouldCutAValue() {
        ui::KeyFigures figures;
        figures.resize(1200, 300);
        figures.show();
        QVERIFY(QTest::qWaitForWindowExposed(&figures));
        settle();
        const auto& f = figures.figures();
        QCOMPARE(f.size(), std::size_t{9});
        QCOMPARE(f[2]->y(), f[0]->y());  // three per line
        QVERIFY(f[3]->y() > f[0]->y());

        const int tile = f[0]->comfortableWidth();
        figures.resize(3 * tile - 40, 300);  // three tiles would be narrower than a value
        settle();
        QCOMPARE(f[1]->y(), f[0]->y());
        QVERIFY(f[2]->y() > f[0]->y());  // two per line
        for (const ui::FigureLabel* label : f)
            QVERIFY(label->width() >= tile);

        figures.resize(1200, 300);
        settle();
        QCOMPARE(f[2]->y(), f[0]->y());
    }

    void toolRowsWrapAndKeepTheirButtonsRight() {
        QWidget row;
        auto* flow = new ui::FlowLayout(&row, 8, 4);
        std::vector<QPushButton*> buttons;
        for (int i = 0; i < 5; ++i) {
            auto* b = new QPushButton(QStringLiteral("Button number %1").arg(i), &row);
            buttons.push_back(b);
            flow->addWidget(b);
        }
        flow->setPushRight(buttons.back());
        const int oneLine = flow->sizeHint().width();
        QCOMPARE(flow->heightForWidth(oneLine), flow->sizeHint().height());
        QVERIFY(flow->minimumSize().width() < oneLine / 3);

        for (int width : {oneLine + 100, oneLine / 2}) {
            flow->setGeometry(QRect(0, 0, width, flow->heightForWidth(width)));
            for (std::size_t i = 0; i < buttons.size(); ++i) {
                const QRect g = buttons[i]->geometry();
                QVERIFY(g.left() >= 0 && g.right() < width);
                QCOMPARE(g.size(), buttons[i]->sizeHint());
                for (std::size_t j = 0; j < i; ++j)
                    QVERIFY(!g.intersects(buttons[j]->geometry()));
            }
            QCOMPARE(buttons.back()->geometry().right(), width - 1);  // pushed to the line's end
        }
        flow->setGeometry(QRect(0, 0, oneLine / 2, flow->heightForWidth(oneLine / 2)));
        QVERIFY(buttons.back()->y() > buttons.front()->y());  // wrapped
        QVERIFY(flow->heightForWidth(oneLine / 2) > flow->heightForWidth(oneLine));

        // A stretching item takes the line's spare width; the pushed-right group still ends at the edge.
        flow->setStretchItem(buttons[1]);
        const int wide = oneLine + 120;
        flow->setGeometry(QRect(0, 0, wide, flow->heightForWidth(wide)));
        QCOMPARE(buttons[1]->width(), buttons[1]->sizeHint().width() + 120);
        QCOMPARE(buttons.back()->geometry().right(), wide - 1);
        for (std::size_t i = 1; i < buttons.size(); ++i)
            QVERIFY(buttons[i]->x() > buttons[i - 1]->geometry().right());
    }
};

QTEST_MAIN(TestWindowSizes)
#include "test_window_sizes.moc"

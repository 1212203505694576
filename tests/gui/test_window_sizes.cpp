// Small screens: the window with every tab fits a 1366x768 laptop and a 1280x720 projector, also in
// presentation mode, where no page scrolls sideways; tab pages scroll instead of growing the window;
// the scenario panel never clips its fields, nor widens when its sections unfold; the key figures reflow
// to two columns or one rather than cut a value; the gauge goes above them; chart legends and tool rows wrap.
#include "WindowTestSupport.h"
#include "ui/charts/ChartLegend.h"
#include "ui/charts/MemoryChart.h"
#include "ui/charts/MfuGauge.h"
#include "ui/charts/TimeChart.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/KeyFigures.h"
#include "ui/plan/PlanView.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/TeachingMode.h"
#include "ui/teach/PresentationMode.h"
#include "ui/widgets/CollapsibleSection.h"
#include "ui/widgets/FigureLabel.h"
#include "ui/widgets/FlowLayout.h"
#include "ui/widgets/Palette.h"

#include <QAction>
#include <QApplication>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>

#include <cmath>
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

    // The window shown at 1280x720, and its scenario panel (nullptr if the window was not exposed).
    ui::ScenarioPanel* laptopScenarioPanel() {
        m_window->resize(1280, 720);
        m_window->show();
        if (!QTest::qWaitForWindowExposed(m_window.get()))
            return nullptr;
        settle();
        return m_window->findChild<ui::ScenarioPanel*>(QStringLiteral("scenarioPanel"));
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void init() { m_window = test::makeFullQuietWindow(); }

    void cleanup() {
        if (ui::TeachingMode::of(*m_window)->presentation()->isActive())
            ui::TeachingMode::of(*m_window)->presentation()->setActive(false);
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
        ui::TeachingMode::of(*m_window)->presentationAction()->trigger(); // fonts x1.6
        QVERIFY(ui::TeachingMode::of(*m_window)->presentation()->isActive());
        settle();
        verifyFits({1280, 720});
        // The memory chart grows with the font (its axis labels would elide), the page scrolls for it.
        QVERIFY(memory->minimumHeight() > plotBefore * 5 / 4);
    }

    // A teacher's projector: presentation mode's fonts in a 1280x720 window. No page scrolls sideways,
    // the Plan puts the gauge above the key figures, and no chart cuts a name or a number.
    void presentationOnAProjectorNeverScrollsSideways() {
        m_window->resize(1280, 720);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        ui::TeachingMode::of(*m_window)->presentationAction()->trigger();
        settle();
        // Presentation mode goes full screen: on a projector that is 1280x720 (the test screen is not).
        m_window->setWindowState(Qt::WindowNoState);
        m_window->resize(1280, 720);
        settle();
        QTabWidget* tabs = m_window->tabs();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            settle();
            auto* scroll = tabs->widget(i)->findChild<QScrollArea*>(QStringLiteral("pageScroll"),
                                                                    Qt::FindDirectChildrenOnly);
            QVERIFY(scroll);
            const int needs = scroll->widget()->minimumSizeHint().width();
            QVERIFY2(needs <= scroll->viewport()->width() && !scroll->horizontalScrollBar()->isVisible(),
                     qPrintable(QStringLiteral("%1 needs %2 px of %3")
                                    .arg(tabs->tabText(i))
                                    .arg(needs)
                                    .arg(scroll->viewport()->width())));
        }

        ui::PlanView* plan = m_window->planView();
        showTabOf(plan->keyFigures());
        settle();
        QVERIFY(plan->isGaugeAboveFigures());
        QVERIFY(static_cast<QWidget*>(plan->gauge())->geometry().bottom() <
                plan->keyFigures()->geometry().top());
        QVERIFY(plan->keyFigures()->columns() <= 2);
        for (const ui::FigureLabel* f : plan->keyFigures()->figures())
            QVERIFY(f->width() >= f->comfortableWidth());

        // The memory legend wraps onto a second line, every name whole and inside the page.
        ui::ChartLegend* legend = plan->memoryChart()->legend();
        QCOMPARE(legend->count(), 6);
        QSet<int> lines;
        for (int i = 0; i < legend->count(); ++i) {
            QWidget* entry = legend->entry(i);
            QVERIFY(entry->isVisible());
            QVERIFY(legend->rect().contains(entry->geometry()));
            QVERIFY(entry->width() >= entry->sizeHint().width());
            lines.insert(entry->y());
        }
        QVERIFY(lines.size() >= 2);
        QVERIFY(legend->entryName(5).startsWith(QStringLiteral("Usable capacity")));

        // Each bar's "time · share" label ends inside the step-time chart.
        auto* timeView = plan->timeChart()->findChild<QChartView*>();
        QVERIFY(timeView);
        int labels = 0;
        for (QGraphicsItem* item : timeView->scene()->items()) {
            auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
            if (!text || !text->isVisible() || !text->text().contains(QStringLiteral(" · ")))
                continue;
            ++labels;
            QVERIFY2(text->sceneBoundingRect().right() <= timeView->chart()->size().width(),
                     qPrintable(text->text()));
        }
        QVERIFY(labels >= 3);
        // Its value axis takes fewer ticks than on a desktop, at round steps, so its numbers show whole.
        QValueAxis* axis = nullptr;
        for (QAbstractAxis* a : timeView->chart()->axes(Qt::Horizontal))
            axis = axis ? axis : qobject_cast<QValueAxis*>(a);
        QVERIFY(axis);
        QVERIFY(axis->tickCount() >= 2 && axis->tickCount() < 6);
        const double step = axis->max() / (axis->tickCount() - 1);
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        QVERIFY2(std::fabs(mantissa - std::round(mantissa * 2) / 2) < 1e-6,
                 qPrintable(QString::number(step)));

        // Back on a desktop: the gauge beside three columns.
        ui::TeachingMode::of(*m_window)->presentationAction()->trigger();
        m_window->setWindowState(Qt::WindowNoState);
        m_window->resize(1920, 1080);
        settle();
        QVERIFY(!plan->isGaugeAboveFigures());
        QCOMPARE(plan->keyFigures()->columns(), 3);
        QVERIFY(static_cast<QWidget*>(plan->gauge())->geometry().right() <
                plan->keyFigures()->geometry().left());
    }

    void legendEntriesExplainTheirSeries() {
        ui::MemoryChart chart;
        chart.resize(700, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QSignalSpy explained(&chart, &ui::MemoryChart::explainRequested);
        ui::ChartLegend* legend = chart.legend();
        QCOMPARE(legend->entryName(0), ui::memoryName(core::MemoryComponent::Weights));
        QTest::mouseClick(legend->entry(0), Qt::LeftButton);
        QVERIFY(!explained.isEmpty());
        QCOMPARE(explained.last().at(0).toString(), ui::memoryExplainKey(core::MemoryComponent::Weights));
        QTest::mouseClick(legend->entry(5), Qt::LeftButton);
        QCOMPARE(explained.last().at(0).toString(), QStringLiteral("memory.headroom"));
    }

    void tabPagesScrollInsteadOfGrowingTheWindow() {
        QTabWidget* tabs = m_window->tabs();
        for (int i = 0; i < tabs->count(); ++i) {
            QWidget* page = tabs->widget(i);
            auto* scroll =
                page->findChild<QScrollArea*>(QStringLiteral("pageScroll"), Qt::FindDirectChildrenOnly);
            QVERIFY2(scroll, qPrintable(tabs->tabText(i)));
            QVERIFY(scroll->widgetResizable());
            // The content wants more room than a small window's tab area has; the page does not.
            QVERIFY2(page->minimumSizeHint().width() < 300, qPrintable(tabs->tabText(i)));
            QVERIFY2(page->minimumSizeHint().height() < 300, qPrintable(tabs->tabText(i)));
        }
    }

    void theScenarioPanelKeepsItsFieldsWhole() {
        ui::ScenarioPanel* panel = laptopScenarioPanel();
        QVERIFY(panel);
        const int contentNeeds = panel->widget()->minimumSizeHint().width();
        QVERIFY(panel->viewport()->width() >= contentNeeds);
        QVERIFY(panel->widget()->width() >= contentNeeds);
        // The tabs keep more room than either side panel.
        QVERIFY(m_window->tabs()->width() > panel->width());
    }

    // Unfolding the scenario panel's sections (the interconnect figures, the architecture, the further
    // training options) keeps the panel as wide as it was: its fields fit the width the folded panel has,
    // so the tabs beside it keep theirs and no tab hides behind the tab bar's scroll arrows.
    void unfoldingTheScenarioSectionsKeepsThePanelsWidth() {
        ui::ScenarioPanel* panel = laptopScenarioPanel();
        QVERIFY(panel);
        const int folded = panel->width();
        const QList<ui::CollapsibleSection*> sections = panel->findChildren<ui::CollapsibleSection*>();
        QVERIFY(sections.size() >= 3);
        for (ui::CollapsibleSection* section : sections) {
            section->setExpanded(true);
            settle();
            QVERIFY2(panel->width() == folded, qPrintable(section->header()->text()));
        }
        QTabBar* bar = m_window->tabs()->tabBar();
        for (int i = 0; i < bar->count(); ++i)
            QVERIFY2(bar->tabRect(i).right() < bar->width(), qPrintable(bar->tabText(i)));
        for (QToolButton* arrow : bar->findChildren<QToolButton*>())
            QVERIFY(!arrow->isVisible());
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
        // One above the other, a value of the axis sits at one x in both: the plot areas line up, though
        // the two charts' y labels ("40", "250") differ in width.
        const QRectF mfuPlot = static_cast<QChartView*>(mfu)->chart()->plotArea();
        const QRectF memoryPlot = static_cast<QChartView*>(memory)->chart()->plotArea();
        QVERIFY2(std::abs(mfuPlot.left() - memoryPlot.left()) < 1.0,
                 qPrintable(QStringLiteral("%1 vs %2").arg(mfuPlot.left()).arg(memoryPlot.left())));
        QVERIFY(std::abs(mfuPlot.right() - memoryPlot.right()) < 1.0);
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
        QCOMPARE(f[2]->y(), f[0]->y()); // three per line
        QVERIFY(f[3]->y() > f[0]->y());

        const int tile = f[0]->comfortableWidth();
        figures.resize(3 * tile - 40, 300); // three tiles would be narrower than a value
        settle();
        QCOMPARE(f[1]->y(), f[0]->y());
        QVERIFY(f[2]->y() > f[0]->y()); // two per line
        for (const ui::FigureLabel* label : f)
            QVERIFY(label->width() >= tile);

        figures.resize(tile + 20, 900); // not even two: one column
        settle();
        QCOMPARE(figures.columns(), 1);
        QVERIFY(f[1]->y() > f[0]->y());
        QCOMPARE(f[1]->x(), f[0]->x());
        QVERIFY(figures.minimumSizeHint().width() <= tile);

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
            QCOMPARE(buttons.back()->geometry().right(), width - 1); // pushed to the line's end
        }
        flow->setGeometry(QRect(0, 0, oneLine / 2, flow->heightForWidth(oneLine / 2)));
        QVERIFY(buttons.back()->y() > buttons.front()->y()); // wrapped
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

    void aWrappingTitleTakesTheLineInsteadOfWideningIt() {
        QWidget row;
        auto* flow = new ui::FlowLayout(&row, 8, 4);
        auto* title = new QLabel(
            QStringLiteral("Published training runs: predicted against measured, case by case"), &row);
        title->setWordWrap(true);
        auto* button = new QPushButton(QStringLiteral("Open"), &row);
        flow->addWidget(title);
        flow->addWidget(button);
        const int oneLine = title->fontMetrics().horizontalAdvance(title->text());
        QVERIFY(flow->minimumSize().width() < oneLine / 2);
        const int narrow = oneLine / 2;
        flow->setGeometry(QRect(0, 0, narrow, flow->heightForWidth(narrow)));
        QCOMPARE(title->width(), narrow);
        QVERIFY(title->height() >= 2 * title->fontMetrics().height()); // wrapped onto two lines
        QVERIFY(button->y() >= title->geometry().bottom());
        QVERIFY(button->geometry().right() < narrow);
    }
};

QTEST_MAIN(TestWindowSizes)
#include "test_window_sizes.moc"

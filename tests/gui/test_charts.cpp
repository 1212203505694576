// The Plan tab's charts as a person sees them: round axis ticks, the "worst" marker clear of the capacity
// line, legends that draw a line as a line and a star as a star, and no ghosts of an earlier plan left on
// screen when the guided tour is stepped quickly.
#include "WindowTestSupport.h"
#include "ui/charts/ChartStyle.h"
#include "ui/charts/MemoryChart.h"
#include "ui/charts/TimeChart.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/PlanView.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/TeachingMode.h"
#include "ui/teach/Tour.h"
#include "ui/teach/WidgetOutline.h"

#include <QScreen>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>

#include <memory>

using namespace lp;

namespace {

// Pixels of what the window shows now (the offscreen platform's backing store: what was last painted,
// partial updates included) that differ from what a full repaint of the widget draws, inside its visible
// part (less a border where the tour's outline may run).
int stalePixels(QWidget* window, QWidget* widget) {
    QRect visible = widget->rect(); // clipped by every parent (the Plan tab scrolls)
    for (QWidget* parent = widget->parentWidget(); parent; parent = parent->parentWidget())
        visible &= QRect(widget->mapFrom(parent, QPoint(0, 0)), parent->size());
    visible.adjust(6, 6, -6, -6);
    if (visible.isEmpty())
        return 0;
    const QPoint at = widget->mapTo(window, visible.topLeft());
    const QImage shown = window->screen()
                             ->grabWindow(window->winId(), at.x(), at.y(), visible.width(), visible.height())
                             .toImage()
                             .convertToFormat(QImage::Format_RGB32);
    const QImage fresh = widget->grab(visible).toImage().convertToFormat(QImage::Format_RGB32);
    if (shown.size() != fresh.size())
        return -1;
    int differing = 0;
    for (int y = 0; y < shown.height(); ++y)
        for (int x = 0; x < shown.width(); ++x)
            differing += shown.pixel(x, y) != fresh.pixel(x, y);
    return differing;
}

} // namespace

class TestCharts : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;

    ui::ScenarioDocument* doc() const { return m_window->document(); }
    ui::PlanView* plan() const { return m_window->planView(); }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void init() {
        m_window = test::makeFullQuietWindow();
        m_window->resize(1280, 720);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup() { test::closeTestWindow(m_window); }

    // Right arrow about 0.3 s apart through the tour: after each step the charts on screen are the charts
    // of that step, no label of an earlier step left over, and each chart keeps its one set of axes.
    void steppingTheTourQuicklyLeavesNoGhosts() {
        ui::TeachingMode* teaching = ui::TeachingMode::of(*m_window);
        teaching->tourAction()->trigger();
        ui::Tour* tour = teaching->tour();
        QVERIFY(tour->isActive());
        teaching->outline()->setAnimated(false);
        const qsizetype memoryAxes = plan()->memoryChart()->chartView()->chart()->axes().size();
        const qsizetype timeAxes = plan()->timeChart()->chartView()->chart()->axes().size();
        for (int i = 1; i < 14; ++i) {
            QTest::keyClick(m_window.get(), Qt::Key_Right);
            QTest::qWait(300);
            QCOMPARE(tour->current(), i);
            const QList<ui::ChartPanel*> charts{plan()->memoryChart(), plan()->timeChart()};
            for (int c = 0; c < charts.size(); ++c)
                QVERIFY2(stalePixels(m_window.get(), charts[c]->chartView()) == 0,
                         qPrintable(QStringLiteral("step %1: the %2 chart shows stale pixels")
                                        .arg(i + 1)
                                        .arg(QLatin1String(c == 0 ? "memory" : "time"))));
            QCOMPARE(plan()->memoryChart()->chartView()->chart()->axes().size(), memoryAxes);
            QCOMPARE(plan()->timeChart()->chartView()->chart()->axes().size(), timeAxes);
        }
    }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"

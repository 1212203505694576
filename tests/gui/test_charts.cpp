// The Plan tab's charts as a person sees them: round axis ticks, the "worst" marker clear of the capacity
// line, legends that draw a line as a line and a star as a star, and no ghosts of an earlier plan left on
// screen when the guided tour is stepped quickly.
#include "WindowTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "ui/charts/ChartStyle.h"
#include "ui/charts/MemoryChart.h"
#include "ui/charts/MfuGauge.h"
#include "ui/charts/TimeChart.h"
#include "ui/document/BundledValidationGroups.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/KeyFigures.h"
#include "ui/plan/PlanView.h"
#include "ui/scenario/ModelPresetBox.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/TeachingMode.h"
#include "ui/teach/PresentationMode.h"
#include "ui/teach/Tour.h"
#include "ui/teach/WidgetOutline.h"
#include "ui/widgets/FigureLabel.h"
#include "ui/widgets/Format.h"

#include <QComboBox>
#include <QLayout>
#include <QScreen>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

using namespace lp;

namespace {

// Pixels of what the window shows now (the offscreen platform's backing store: what was last painted,
// partial updates included) that differ from what a full repaint of the widget draws, inside its visible
// part (less a border where the tour's outline may run).
constexpr int kEdgePixels = 8;

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

    // A round step (1, 2, 2.5 or 5 x 10^k) and the decimals it needs; the Plan tab's value axes use them.
    void axisTicksAreRoundNumbers() {
        QCOMPARE(ui::roundTickStep(1.25), 2.0); // 0 / 2 / 4 rather than 0 / 1.3 / 2.5 / 3.8
        QCOMPARE(ui::roundTickStep(0.4), 0.5);
        QCOMPARE(ui::roundTickStep(2.2), 2.5);
        QCOMPARE(ui::roundTickStep(400), 500.0);
        QCOMPARE(ui::roundTickStep(6), 10.0);
        QCOMPARE(ui::stepDecimals(500), 0);
        QCOMPARE(ui::stepDecimals(2.5), 1);
        QCOMPARE(ui::stepDecimals(0.25), 2);
        QValueAxis axis;
        axis.setRange(0, 5);
        ui::setRoundTicks(&axis, 5);
        QCOMPARE(axis.tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(axis.tickInterval(), 2.0);
        QCOMPARE(axis.labelFormat(), QStringLiteral("%.0f"));

        const auto isRound = [](const QValueAxis* a) {
            if (a->tickType() != QValueAxis::TicksDynamic || !(a->tickInterval() > 0) || a->tickAnchor() != 0)
                return false;
            const double mantissa =
                a->tickInterval() / std::pow(10.0, std::floor(std::log10(a->tickInterval())));
            return std::ranges::any_of(std::array{1.0, 2.0, 2.5, 5.0},
                                       [&](double m) { return std::fabs(mantissa - m) < 1e-9; });
        };
        // The seed and one GPU (1.3 TB): the memory axis and the step-time axis.
        core::Scenario s = doc()->scenario();
        for (int step = 0; step < 2; ++step) {
            if (step == 1) {
                s.cluster.nodes = 1;
                s.cluster.gpusPerNode = 1;
                s.cluster.nvlinkDomain = 1;
                s.layout = core::Layout{};
                doc()->edit(s, QStringLiteral("one GPU"));
            }
            QTest::qWait(20);
            const QList<QAbstractAxis*> memoryAxes =
                plan()->memoryChart()->chartView()->chart()->axes(Qt::Vertical);
            QCOMPARE(memoryAxes.size(), 1);
            QVERIFY2(isRound(qobject_cast<QValueAxis*>(memoryAxes.front())),
                     qPrintable(QString::number(step)));
            bool timeAxisRound = false;
            for (QAbstractAxis* a : plan()->timeChart()->chartView()->chart()->axes(Qt::Horizontal))
                if (auto* v = qobject_cast<QValueAxis*>(a))
                    timeAxisRound = isRound(v);
            QVERIFY2(timeAxisRound, qPrintable(QString::number(step)));
        }
    }

    // "worst ▼" never sits on the capacity line: with the fullest stage from 90 % to 103 % of the capacity
    // the marker's box stays clear of the line (above it, or above the bar where the bar ends well below).
    void theWorstMarkerStaysClearOfTheCapacityLine() {
        ui::MemoryChart* chart = plan()->memoryChart();
        const core::Scenario seed = doc()->scenario();
        const double worst = doc()->shownPlan().memory.worstTotalBytes();
        int near = 0;
        for (int percent = 90; percent <= 103; ++percent) {
            core::Scenario s = seed;
            s.cluster.gpu.hbmBytes = worst * 100.0 / percent;
            doc()->edit(s, QStringLiteral("capacity"));
            QTest::qWait(10);
            const QRectF marker = chart->worstMarkerRect();
            QVERIFY(!marker.isEmpty());
            const double line = chart->capacityLineY();
            QVERIFY2(marker.bottom() < line - 1 || marker.top() > line + 1,
                     qPrintable(QStringLiteral("%1 %: marker %2-%3, line %4")
                                    .arg(percent)
                                    .arg(marker.top())
                                    .arg(marker.bottom())
                                    .arg(line)));
            const QPointF barTop = chart->chartView()->chart()->mapToPosition(
                QPointF(0, worst / ui::bytesPerUnit(chart->unit())),
                chart->chartView()->chart()->series().front());
            near += barTop.y() > line && barTop.y() - line < marker.height(); // the case the marker moves for
        }
        QVERIFY(near > 0);
    }

    // Qt Charts' legends (Explore, One axis, Compare) draw each series' own mark: the dashed capacity
    // line as a dashed line (dashes short enough to show in the marker), the current layout's star as a
    // star, not every one as a filled square.
    void legendsDrawEachSeriesMark() {
        int legends = 0;
        int capacityLines = 0;
        for (QChartView* view : m_window->findChildren<QChartView*>()) {
            if (!view->chart()->legend()->isVisible())
                continue;
            ++legends;
            QLegend* legend = view->chart()->legend();
            QCOMPARE(legend->markerShape(), QLegend::MarkerShapeFromSeries);
            // A line's marker is round(font height / 2 x 1.5) pixels wide: a dash and a gap fit in it.
            const double markerWidth = std::round(QFontMetrics(legend->font()).height() / 2 * 1.5);
            for (QAbstractSeries* series : view->chart()->series()) {
                auto* line = qobject_cast<QLineSeries*>(series);
                if (!line || !line->name().startsWith(QStringLiteral("Usable capacity")))
                    continue;
                ++capacityLines;
                const QList<qreal> dashes = line->pen().dashPattern();
                QVERIFY(line->pen().style() != Qt::SolidLine && dashes.size() >= 2);
                QVERIFY2((dashes[0] + dashes[1]) * line->pen().widthF() < markerWidth,
                         qPrintable(line->name()));
            }
        }
        QVERIFY(legends >= 3);
        QVERIFY(capacityLines >= 2);
    }

    // Every card shows its value and detail whole (wrapped where the card is narrow, nothing ends in "…")
    // at 1280 x 720 and in presentation mode, for the seed, after an edit changed the batch ("was 64") and
    // for a batch of a million sequences.
    void theBatchCardShowsItsTextWhole() {
        // The step-time card gains its band's line once the bundled runs are predicted: measure after that.
        ui::bundledTrustData();
        QTRY_VERIFY(plan()->gauge()->showsTrustBand());
        QStringList cut;
        const auto verifyWhole = [this, &cut](const char* when) {
            const auto tallEnough = [this] {
                for (ui::FigureLabel* card : plan()->keyFigures()->figures())
                    if (card->height() < card->layout()->minimumSize().height())
                        return false;
                return true;
            };
            // Whole: wrapped onto more lines, never elided, and the card as tall as its lines.
            const auto whole = [](QString shown, QString text) {
                return shown.replace(QLatin1Char('\n'), QLatin1Char(' ')) ==
                       text.replace(QLatin1Char('\n'), QLatin1Char(' '));
            };
            const auto allWhole = [&] {
                for (ui::FigureLabel* card : plan()->keyFigures()->figures())
                    if (!whole(card->shownValue(), card->value()) ||
                        !whole(card->shownDetail(), card->detail()))
                        return false;
                return true;
            };
            QTest::qWait(20); // the cards' labels wrap after the layout that sized them
            // Then the page's layout follows the cards' new heights (several passes on a busy machine).
            (void)QTest::qWaitFor([&] { return tallEnough() && allWhole(); }, 2000);
            for (ui::FigureLabel* card : plan()->keyFigures()->figures())
                if (!whole(card->shownValue(), card->value()) ||
                    !whole(card->shownDetail(), card->detail()) ||
                    card->height() < card->layout()->minimumSize().height())
                    cut << QStringLiteral("%1, %2: %3 / %4")
                               .arg(QLatin1String(when), card->id(), card->shownValue(), card->shownDetail());
        };
        for (bool presenting : {false, true}) {
            if (presenting)
                ui::TeachingMode::of(*m_window)->presentationAction()->trigger();
            core::Scenario s = doc()->scenario();
            verifyWhole(presenting ? "presenting, seed" : "seed");
            s.layout.dp = 4; // 128 sequences, was 64
            s.cluster.nodes = 16;
            doc()->edit(s, QStringLiteral("DP 4"));
            verifyWhole(presenting ? "presenting, DP 4" : "DP 4");
            s.layout.microBatch = 16;
            s.layout.accumulation = 1024;
            s.layout.dp = 64; // 1,048,576 sequences
            s.cluster.nodes = 256;
            doc()->edit(s, QStringLiteral("a million sequences"));
            verifyWhole(presenting ? "presenting, a million sequences" : "a million sequences");
            doc()->undoStack()->setIndex(0);
            if (presenting)
                ui::TeachingMode::of(*m_window)->presentationAction()->trigger();
        }
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QStringLiteral("\n"))));
    }

    // The closed model list reads whole or shortens the model's name and keeps its size, never cutting the
    // text at its edge:
    // 1280 x 720 and presentation mode, the seed and a mixture of experts.
    void theModelListShowsItsChoiceWithinTheBox() {
        auto* box = qobject_cast<ui::ModelPresetBox*>(
            m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("modelPreset")));
        QVERIFY(box);
        for (bool presenting : {false, true}) {
            if (presenting)
                ui::TeachingMode::of(*m_window)->presentationAction()->trigger();
            for (const QString& model : {QStringLiteral("Llama-2-70B"), QStringLiteral("DeepSeek-V3")}) {
                const int index = box->findText(model, Qt::MatchStartsWith);
                QVERIFY2(index >= 0, qPrintable(model));
                box->setCurrentIndex(index);
                QTest::qWait(20);
                const QString shown = box->shownText();
                QVERIFY2(box->fontMetrics().horizontalAdvance(shown) <= box->textWidth(), qPrintable(shown));
                QString size = box->currentText().mid(box->currentText().lastIndexOf(QStringLiteral(" · ")));
                size = size.left(size.indexOf(QStringLiteral(", "))); // " · 671 B" of " · 671 B, 37 B active"
                QVERIFY2(shown.contains(size), qPrintable(shown));    // the size stays
                QVERIFY2(shown.startsWith(model.left(5)), qPrintable(shown));
            }
            if (presenting)
                ui::TeachingMode::of(*m_window)->presentationAction()->trigger();
        }
    }

    // The MFU value in the middle of the dial stays clear of the scale's "0" and "100", also with
    // presentation mode's large labels.
    void theGaugeValueClearsTheScaleLabels() {
        for (bool presenting : {false, true}) {
            if (presenting)
                ui::TeachingMode::of(*m_window)->presentationAction()->trigger();
            QTest::qWait(20);
            const ui::MfuGauge* gauge = plan()->gauge();
            const QRectF value = gauge->valueTextRect();
            QVERIFY(!value.isEmpty());
            QVERIFY2(!value.intersects(gauge->scaleLabelRect(0)) &&
                         !value.intersects(gauge->scaleLabelRect(1)),
                     presenting ? "presenting" : "1280 x 720");
            if (presenting)
                ui::TeachingMode::of(*m_window)->presentationAction()->trigger();
        }
    }

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
            for (int c = 0; c < charts.size(); ++c) {
                // A bar's antialiased edge may come out one pixel different between the window's paint
                // and a fresh grab; a label left over from another step is hundreds of pixels.
                const int stale = stalePixels(m_window.get(), charts[c]->chartView());
                QVERIFY2(stale >= 0 && stale <= kEdgePixels,
                         qPrintable(QStringLiteral("step %1: the %2 chart shows %3 stale pixels")
                                        .arg(i + 1)
                                        .arg(QLatin1String(c == 0 ? "memory" : "time"))
                                        .arg(stale)));
            }
            QCOMPARE(plan()->memoryChart()->chartView()->chart()->axes().size(), memoryAxes);
            QCOMPARE(plan()->timeChart()->chartView()->chart()->axes().size(), timeAxes);
        }
    }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"

// The Timeline tab: one lane per pipeline rank at 1280x720, following the document's layout live, hover
// naming the event's micro batch and explaining it, zoom and pan changing the visible span, a second
// layout compared in the same time scale, and only the visible events painted at pp 64, the text measured
// once per size and heading.
#include "GuiTestSupport.h"
#include "WindowTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Timeline.h"
#include "core/search/LayoutSteps.h"
#include "ui/charts/ChartLegend.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/WindowTabs.h"
#include "ui/timeline/TimelineLanes.h"
#include "ui/timeline/TimelineScale.h"
#include "ui/timeline/TimelineView.h"
#include "ui/widgets/Palette.h"

#include <QApplication>
#include <QComboBox>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>
#include <QWheelEvent>

#include <cmath>

using namespace lp;

namespace {

// A centre point of the first event of `kind` on `rank`'s compute lane (nullopt: none).
std::optional<std::pair<core::TimelineEvent, QPoint>> firstEvent(const ui::TimelineLanes& lanes,
                                                                 core::TimelineKind kind, int rank) {
    for (const core::TimelineEvent& e : lanes.timeline().events)
        if (e.kind == kind && e.rank == rank && e.lane == core::TimelineLane::Compute) {
            const int x = (lanes.xAt(e.startSeconds) + lanes.xAt(e.endSeconds())) / 2;
            return std::pair{e, QPoint(x, lanes.computeLaneRect(rank).center().y())};
        }
    return std::nullopt;
}

// A pipeline of `ranks` ranks and `microBatches` micro batches, laid out by hand as GPipe would (every
// forward, then every backward, one second and two seconds each), with the bubble's idle between.
core::Timeline handBuilt(int ranks, int microBatches) {
    core::Timeline t;
    t.schedule = core::PipelineSchedule::GPipe;
    t.pipelineRanks = ranks;
    t.microBatches = microBatches;
    const double forward = 1, backward = 2;
    for (int r = 0; r < ranks; ++r) {
        core::TimelineRank rank;
        rank.rank = r;
        double now = 0;
        const auto add = [&](core::TimelineKind kind, int mb, double start, double seconds) {
            t.events.push_back({kind, core::TimelineLane::Compute, r, mb, mb < 0 ? -1 : 0, start, seconds});
            now = start + seconds;
        };
        if (r > 0)
            add(core::TimelineKind::Idle, -1, 0, r * forward);
        for (int mb = 0; mb < microBatches; ++mb) {
            add(core::TimelineKind::Forward, mb, now, forward);
            rank.inFlight.push_back({now, mb + 1.0});
        }
        add(core::TimelineKind::Idle, -1, now,
            2 * (ranks - 1 - r) * backward / 2 + (ranks - 1 - r) * forward);
        for (int mb = 0; mb < microBatches; ++mb) {
            add(core::TimelineKind::Backward, mb, now, backward);
            rank.inFlight.push_back({now, microBatches - mb - 1.0});
        }
        rank.peakInFlight = microBatches;
        t.ranks.push_back(rank);
        t.makespanSeconds = std::max(t.makespanSeconds, now);
    }
    t.pipelineSeconds = t.makespanSeconds;
    return t;
}

} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    // The window's Timeline tab at 1280x720: one lane per pipeline rank of the current layout, each in view.
    void rendersAt1280x720WithALanePerPipelineRank() {
        auto window = test::makeFullQuietWindow();
        window->resize(1280, 720);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        ui::TimelineView* view = ui::WindowTabs::of(*window)->timeline();
        QVERIFY(view);
        QCOMPARE(ui::WindowTabs::of(*window)->page(ui::WindowTab::Timeline), static_cast<QWidget*>(view));
        window->tabs()->setCurrentWidget(view);
        QTest::qWait(50);
        const int pp = window->document()->scenario().layout.pp;
        QVERIFY(pp > 1);
        ui::TimelineLanes* lanes = view->lanes();
        QVERIFY(lanes->isVisible());
        QCOMPARE(lanes->laneCount(), pp);
        QCOMPARE(lanes->timeline().pipelineRanks, pp);
        QVERIFY(!lanes->grab().isNull());
        QVERIFY(lanes->paintedEvents() > 0);
        for (int rank = 0; rank < pp; ++rank) {
            QVERIFY(lanes->rect().contains(lanes->computeLaneRect(rank)));
            QVERIFY(lanes->rect().contains(lanes->communicationLaneRect(rank)));
        }
        // The whole step shows, with the legend and Fit in the page, and nothing scrolls sideways.
        QVERIFY(view->scale()->isFit());
        QVERIFY(view->legend()->isVisible() && view->fitButton()->isVisible());
        QVERIFY(lanes->width() <= view->width());
        QVERIFY(!view->panBar()->isVisible());
        // The heading is too wide for one line here: the step's figures start their own line, not a word of
        // them ("... (15.1 % of the" / "step)").
        QVERIFY(lanes->shownHeading().contains(QStringLiteral("1F1B.\nStep ")));
        window->document()->undoStack()->setClean();
        window->close();
    }

    // A change of accumulation in the document redraws the timeline: more micro batches, more events and a
    // longer step; undoing it brings the first timeline back.
    void followsTheDocument() {
        ui::ScenarioDocument doc;
        ui::TimelineView view(&doc);
        const core::Timeline before = view.lanes()->timeline();
        QCOMPARE(before.microBatches, doc.scenario().layout.accumulation);
        const int accumulation = doc.scenario().layout.accumulation;
        core::Scenario more = doc.scenario();
        more.layout.accumulation = accumulation * 2;
        doc.edit(more, QStringLiteral("more micro batches"));
        const core::Timeline after = view.lanes()->timeline();
        QCOMPARE(after.microBatches, accumulation * 2);
        QVERIFY(after.events.size() > before.events.size());
        QVERIFY(after.makespanSeconds > before.makespanSeconds);
        QVERIFY(view.lanes()->heading().contains(QString::number(accumulation * 2)));
        doc.undoStack()->undo();
        QCOMPARE(view.lanes()->timeline().events.size(), before.events.size());
        QCOMPARE(view.lanes()->timeline().makespanSeconds, before.makespanSeconds);
    }

    // Pointing at a forward names it, its micro batch and rank, and previews the compute explanation; a
    // click explains it; pointing at the bubble explains the bubble.
    void hoverExplainsAnEvent() {
        ui::ScenarioDocument doc;
        ui::TimelineView view(&doc);
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        ui::TimelineLanes* lanes = view.lanes();
        const auto forward = firstEvent(*lanes, core::TimelineKind::Forward, 1);
        QVERIFY(forward);
        const auto& [event, at] = *forward;
        const QString text = lanes->textAt(at);
        QVERIFY2(text.contains(QStringLiteral("Forward")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("micro batch %1 of").arg(event.microBatch + 1)),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("rank 1")), qPrintable(text));
        QSignalSpy previewed(&view, &ui::TimelineView::previewRequested);
        QSignalSpy explained(&view, &ui::TimelineView::explainRequested);
        QTest::mouseMove(lanes, at);
        QVERIFY(!previewed.isEmpty());
        QCOMPARE(previewed.last().at(0).toString(), ui::timeExplainKey(ui::TimeComponent::Compute));
        QTest::mouseClick(lanes, Qt::LeftButton, {}, at);
        QCOMPARE(explained.size(), 1);
        QCOMPARE(explained.last().at(0).toString(), ui::timeExplainKey(ui::TimeComponent::Compute));
        // The last rank waits for the first forward to reach it: its first event is the bubble.
        const auto idle = firstEvent(*lanes, core::TimelineKind::Idle, lanes->laneCount() - 1);
        QVERIFY(idle);
        QVERIFY(lanes->textAt(idle->second).contains(QStringLiteral("bubble")));
        QTest::mouseClick(lanes, Qt::LeftButton, {}, idle->second);
        QCOMPARE(explained.last().at(0).toString(), QStringLiteral("bubble_fraction"));
    }

    // Zoom in (button, key, wheel) narrows the visible span, the scroll bar pans it, Fit shows the whole
    // step.
    void zoomAndPanChangeTheVisibleSpan() {
        ui::ScenarioDocument doc;
        ui::TimelineView view(&doc);
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        ui::TimelineScale* scale = view.scale();
        const double whole = scale->span();
        QCOMPARE(whole, view.lanes()->timeline().makespanSeconds);
        view.findChild<QToolButton*>(QStringLiteral("timelineZoomIn"))->click();
        QVERIFY(scale->span() < whole * 0.8);
        const double afterButton = scale->span();
        view.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        view.lanes()->setFocus();
        QTest::keyClick(view.lanes(), Qt::Key_Plus);
        QVERIFY(scale->span() < afterButton);
        // The wheel zooms about the pointer: the time under it stays under it.
        const QPoint at = view.lanes()->computeLaneRect(0).center();
        const double under = view.lanes()->secondsAt(at.x());
        QWheelEvent wheel(at, view.lanes()->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        const double beforeWheel = scale->span();
        QApplication::sendEvent(view.lanes(), &wheel);
        QVERIFY(scale->span() < beforeWheel);
        QVERIFY(std::abs(view.lanes()->secondsAt(at.x()) - under) < scale->span() / 100);
        // Zoomed in, fewer events are painted than the whole step holds.
        view.lanes()->repaint();
        QVERIFY(view.lanes()->paintedEvents() < static_cast<int>(view.lanes()->timeline().events.size()));
        // The scroll bar pans: its end shows the step's end.
        QScrollBar* pan = view.panBar();
        QVERIFY(pan->isVisible());
        QVERIFY(pan->maximum() > 0);
        pan->setValue(pan->maximum());
        QVERIFY(std::abs(scale->end() - scale->total()) < scale->total() * 1e-3);
        // A drag pans back towards the start.
        const double end = scale->start();
        QTest::mousePress(view.lanes(), Qt::LeftButton, {}, at);
        QTest::mouseMove(view.lanes(), at + QPoint(200, 0));
        QTest::mouseRelease(view.lanes(), Qt::LeftButton, {}, at + QPoint(200, 0));
        QVERIFY(scale->start() < end);
        view.fitButton()->click();
        QVERIFY(scale->isFit());
        QCOMPARE(scale->span(), whole);
        // The whole step has nothing to pan to: no scroll bar.
        QVERIFY(!pan->isVisible());
    }

    // Compare with twice the accumulation: two timelines, one above the other, in one time scale (the
    // longer step's); with a pinned layout; back to nothing.
    void compareShowsTwoTimelinesInOneScale() {
        ui::ScenarioDocument doc;
        ui::TimelineView view(&doc);
        view.resize(1200, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.comparedLanes()->isVisible());
        QComboBox* choice = view.compareChoice();
        const int more = choice->findText(
            QStringLiteral("Accumulation %1 (twice)").arg(doc.scenario().layout.accumulation * 2));
        QVERIFY(more > 0);
        choice->setCurrentIndex(more);
        emit choice->activated(more);
        QVERIFY(view.comparedLanes()->isVisible());
        QCOMPARE(view.comparedLanes()->laneCount(), view.lanes()->laneCount());
        const core::Timeline& first = view.lanes()->timeline();
        const core::Timeline& second = view.comparedLanes()->timeline();
        QCOMPARE(second.microBatches, 2 * first.microBatches);
        QCOMPARE(view.scale()->total(), std::max(first.makespanSeconds, second.makespanSeconds));
        QVERIFY(view.comparedLanes()->geometry().top() > view.lanes()->geometry().bottom());
        // Both draw a moment at the same x.
        QCOMPARE(view.lanes()->xAt(first.makespanSeconds), view.comparedLanes()->xAt(first.makespanSeconds));
        // The choice survives an edit of the document, and the comparison follows it.
        core::Scenario edited = doc.scenario();
        edited.layout.accumulation *= 2;
        doc.edit(edited, QStringLiteral("accumulation"));
        QCOMPARE(view.comparedLanes()->timeline().microBatches, 2 * edited.layout.accumulation);

        // A layout pinned in the Compare tab.
        core::Scenario pinned = doc.scenario();
        pinned.layout.accumulation = 4;
        view.setPinnedLayouts({{QStringLiteral("A"), pinned, core::evaluate(pinned, doc.profile())}});
        const int pin = choice->findText(QStringLiteral("Pinned A"));
        QVERIFY(pin > 0);
        choice->setCurrentIndex(pin);
        emit choice->activated(pin);
        QCOMPARE(view.comparedLanes()->timeline().microBatches, 4);

        choice->setCurrentIndex(0);
        emit choice->activated(0);
        QVERIFY(!view.comparedLanes()->isVisible());
        QCOMPARE(view.scale()->total(), view.lanes()->timeline().makespanSeconds);
    }

    // pp 64 with 512 micro batches: each lane paints at most one event per pixel column (and per lane),
    // however many the step holds; zoomed into a tenth of the step, it paints only the events there.
    void paintsOnlyWhatShows() {
        ui::TimelineScale scale;
        ui::TimelineLanes lanes(&scale);
        const core::Timeline big = handBuilt(64, 512);
        scale.setTotal(big.makespanSeconds);
        lanes.setTimeline(big, QStringLiteral("pp 64"));
        lanes.resize(800, lanes.sizeHint().height());
        QCOMPARE(lanes.laneCount(), 64);
        QVERIFY(!lanes.grab().isNull());
        const int plotWidth = lanes.computeLaneRect(0).width();
        QVERIFY(lanes.paintedEvents() > 0);
        QVERIFY2(lanes.paintedEvents() <= 64 * (plotWidth + 2),
                 qPrintable(QStringLiteral("%1 painted").arg(lanes.paintedEvents())));
        QVERIFY(static_cast<int>(big.events.size()) > 64 * (plotWidth + 2));
        scale.setVisible(big.makespanSeconds * 0.45, big.makespanSeconds * 0.1);
        QVERIFY(!lanes.grab().isNull());
        const int zoomed = lanes.paintedEvents();
        QVERIFY(zoomed > 0);
        QVERIFY(zoomed < static_cast<int>(big.events.size()) / 5);
        // The text is measured once per size, font and heading, not for each of the thousands of events a
        // paint places (that took seconds a paint with a wrapped heading); a new width measures it again.
        const int measured = lanes.metricsMeasured();
        QVERIFY(!lanes.grab().isNull());
        QCOMPARE(lanes.metricsMeasured(), measured);
        lanes.resize(600, lanes.height());
        QCOMPARE(lanes.computeLaneRect(0).width(), plotWidth - 200);
        QCOMPARE(lanes.metricsMeasured(), measured + 1);
        lanes.setTimeline(big,
                          QStringLiteral("pp 64, a heading long enough to wrap. Step 1 s, bubble 0.5 s"));
        QVERIFY(!lanes.grab().isNull());
        QCOMPARE(lanes.metricsMeasured(), measured + 2);
        // A hand-built forward still names its micro batch.
        const auto forward = firstEvent(lanes, core::TimelineKind::Forward, 3);
        QVERIFY(forward);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestTimelineView)
#include "test_timeline_view.moc"

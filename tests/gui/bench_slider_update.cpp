// Benchmark (not a test): the cost of one slider step in the real window, for the default scenario:
// the edit through the undo stack, core::evaluate, the valid steps of every control, and the
// synchronous repaint of the whole window (charts, gauge, figures, diagnostics, explanation).
//   bench_slider_update [ITERATIONS]     (run with QT_QPA_PLATFORM=offscreen on a headless machine)
#include "ui/charts/MemoryChart.h"
#include "ui/charts/MfuGauge.h"
#include "ui/charts/TimeChart.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/DiagnosticsPanel.h"
#include "ui/plan/ExplanationPanel.h"
#include "ui/plan/KeyFigures.h"
#include "ui/plan/PlanView.h"
#include "ui/scenario/LayoutSliders.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/MainWindow.h"
#include "ui/widgets/StepControl.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPaintEvent>
#include <QSlider>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <vector>

namespace {
// Counts paint events per widget class (bench_slider_update ITER --paint-stats): what a step repaints.
class PaintCounter : public QObject {
public:
    std::map<QString, int> counts;
    bool verbose = false;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (verbose && (e->type() == QEvent::Resize || e->type() == QEvent::Move) && o->isWidgetType()) {
            const QWidget* w = static_cast<QWidget*>(o);
            std::printf("      %s %s %s -> %dx%d+%d+%d\n", e->type() == QEvent::Resize ? "resize" : "move",
                        o->metaObject()->className(), qPrintable(o->objectName()), w->width(), w->height(),
                        w->x(), w->y());
        }
        if (e->type() == QEvent::Paint) {
            ++counts[QString::fromLatin1(o->metaObject()->className()) + QLatin1Char(' ') + o->objectName()];
            if (verbose) {
                const QRect r = static_cast<QPaintEvent*>(e)->rect();
                std::printf("      paint %s %s %dx%d+%d+%d\n", o->metaObject()->className(),
                            qPrintable(o->objectName()), r.width(), r.height(), r.x(), r.y());
            }
        }
        return false;
    }
};

// CPU time of the whole process (all threads): unlike wall time, not inflated by other processes.
double cpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}
} // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    const int iterations = argc > 1 ? std::max(10, std::atoi(argv[1])) : 400;
    lp::ui::WindowOptions options;
    options.persistentSettings = false;
    options.autosave = false;
    lp::ui::MainWindow window(options);
    window.resize(1600, 1000);
    window.show();
    for (int i = 0; i < 5; ++i)
        QApplication::processEvents();

    lp::ui::ScenarioDocument* doc = window.document();
    QSlider* tp = window.scenarioPanel()->layoutSliders()->control(lp::core::LayoutAxis::Tp)->slider();
    QSlider* acc =
        window.scenarioPanel()->layoutSliders()->control(lp::core::LayoutAxis::Accumulation)->slider();

    PaintCounter counter;
    const bool paintStats = QCoreApplication::arguments().contains(QStringLiteral("--paint-stats"));
    if (paintStats) {
        // One traced step: which widgets repaint, and how much of each.
        app.installEventFilter(&counter);
        counter.verbose = true;
        tp->setSliderPosition(tp->value() - 1);
        QApplication::processEvents();
        counter.verbose = false;
    }

    // Each step: move a slider one position (as a drag does), then repaint everything now.
    auto measure = [&](QSlider* slider, std::vector<double>& model, std::vector<double>& total,
                       std::vector<double>& cpu, bool fullRepaint) {
        const int lo = slider->minimum();
        const int hi = slider->maximum();
        int direction = -1;
        slider->setSliderDown(true);
        for (int i = 0; i < iterations; ++i) {
            int next = slider->value() + direction;
            if (next < lo || next > hi) {
                direction = -direction;
                next = slider->value() + direction;
            }
            QElapsedTimer t;
            t.start();
            const double cpu0 = cpuMs();
            slider->setSliderPosition(next); // edit + evaluate + steps + widget updates
            const double afterModel = static_cast<double>(t.nsecsElapsed()) / 1e6;
            if (fullRepaint)
                window.repaint();          // pessimistic: paint the whole window, not just what changed
            QApplication::processEvents(); // deferred layout, chart work and the paint of what changed
            total.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
            cpu.push_back(cpuMs() - cpu0);
            model.push_back(afterModel);
        }
        slider->setSliderDown(false);
    };

    std::printf("slider step, default scenario (%d steps per row), milliseconds:\n", iterations);
    auto report = [](const char* name, const std::vector<double>& v) {
        std::printf("  %-44s min %6.2f  median %6.2f  p95 %6.2f  max %6.2f\n", name, percentile(v, 0.0),
                    percentile(v, 0.5), percentile(v, 0.95), percentile(v, 1.0));
    };
    for (bool full : {false, true}) {
        const bool onlyTp = QCoreApplication::arguments().contains(QStringLiteral("--tp"));
        for (QSlider* slider : {tp, acc}) {
            if (onlyTp && slider != tp)
                continue;
            std::vector<double> model, total, cpu;
            measure(slider, model, total, cpu, full);
            const QString name = slider == tp ? QStringLiteral("TP") : QStringLiteral("accumulation");
            const QString paint =
                full ? QStringLiteral("full-window repaint") : QStringLiteral("paint of what changed");
            report(qPrintable(name + QStringLiteral(": update (edit+evaluate+widgets)")), model);
            report(qPrintable(name + QStringLiteral(": update + ") + paint + QStringLiteral(", wall")),
                   total);
            report(qPrintable(name + QStringLiteral(": update + ") + paint + QStringLiteral(", CPU")), cpu);
        }
    }
    if (paintStats) {
        app.removeEventFilter(&counter);
        for (const auto& [name, n] : counter.counts)
            std::printf("    paints %6d  %s\n", n, qPrintable(name));
    }
    // Where the time goes: the document alone (evaluate + valid steps), then each view's repaint.
    {
        lp::ui::ScenarioDocument bare;
        std::vector<double> t;
        for (int i = 0; i < iterations; ++i) {
            QElapsedTimer timer;
            timer.start();
            bare.setLayoutValue(lp::core::LayoutAxis::Accumulation, 16 + (i % 2), true);
            t.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
        std::printf("  %-34s median %6.2f  p95 %6.2f\n", "document alone (evaluate+steps)",
                    percentile(t, 0.5), percentile(t, 0.95));
    }
    auto paintCost = [&](const char* name, QWidget* w) {
        std::vector<double> t;
        for (int i = 0; i < 50; ++i) {
            QElapsedTimer timer;
            timer.start();
            w->repaint();
            t.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
        std::printf("  repaint %-26s median %6.2f\n", name, percentile(t, 0.5));
    };
    lp::ui::PlanView* plan = window.planView();
    paintCost("memory chart", plan->memoryChart());
    paintCost("time chart", plan->timeChart());
    paintCost("MFU gauge", plan->gauge());
    paintCost("key figures", plan->keyFigures());
    paintCost("diagnostics", window.diagnosticsPanel());
    paintCost("explanation", window.explanationPanel());
    paintCost("scenario panel", window.scenarioPanel());
    paintCost("whole window", &window);
    std::printf("  core evaluate alone (last step): %.1f us; evaluations: %lld\n",
                doc->evaluationMicroseconds(), doc->evaluations());
    return 0;
}

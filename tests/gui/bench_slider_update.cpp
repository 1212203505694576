// Benchmark (not a test): the cost of one slider step in the real window, for the default scenario:
// the edit through the undo stack, core::evaluate, the valid steps of every control, and the
// synchronous repaint of the whole window (charts, gauge, figures, diagnostics, explanation).
//   bench_slider_update [ITERATIONS]     (run with QT_QPA_PLATFORM=offscreen on a headless machine)
#include "ui/LayoutSliders.h"
#include "ui/MainWindow.h"
#include "ui/ScenarioDocument.h"
#include "ui/ScenarioPanel.h"
#include "ui/StepControl.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSlider>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {
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
    QSlider* tp = window.scenarioPanel()->layoutSliders()->control(lp::ui::LayoutAxis::Tp)->slider();
    QSlider* acc = window.scenarioPanel()->layoutSliders()->control(lp::ui::LayoutAxis::Accumulation)->slider();

    // Each step: move a slider one position (as a drag does), then repaint everything now.
    auto measure = [&](QSlider* slider, std::vector<double>& model, std::vector<double>& total) {
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
            slider->setSliderPosition(next);  // edit + evaluate + steps + widget updates
            const double afterModel = static_cast<double>(t.nsecsElapsed()) / 1e6;
            window.repaint();                  // synchronous paint of the whole window
            QApplication::processEvents();     // deferred chart and layout work
            total.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
            model.push_back(afterModel);
        }
        slider->setSliderDown(false);
    };

    std::vector<double> tpModel, tpTotal, accModel, accTotal;
    measure(tp, tpModel, tpTotal);
    measure(acc, accModel, accTotal);
    std::printf("slider step, default scenario (%d steps each), milliseconds:\n", iterations);
    std::printf("  %-34s median %6.2f  p95 %6.2f  max %6.2f\n", "TP: update (edit+evaluate+widgets)",
                percentile(tpModel, 0.5), percentile(tpModel, 0.95), percentile(tpModel, 1.0));
    std::printf("  %-34s median %6.2f  p95 %6.2f  max %6.2f\n", "TP: update + full repaint", percentile(tpTotal, 0.5),
                percentile(tpTotal, 0.95), percentile(tpTotal, 1.0));
    std::printf("  %-34s median %6.2f  p95 %6.2f  max %6.2f\n", "accumulation: update", percentile(accModel, 0.5),
                percentile(accModel, 0.95), percentile(accModel, 1.0));
    std::printf("  %-34s median %6.2f  p95 %6.2f  max %6.2f\n", "accumulation: update + full repaint",
                percentile(accTotal, 0.5), percentile(accTotal, 0.95), percentile(accTotal, 1.0));
    std::printf("  core evaluate alone (last step): %.1f us; evaluations: %lld\n", doc->evaluationMicroseconds(),
                doc->evaluations());
    return 0;
}

#pragma once
// Puts the tool tabs into the main window: "Calibrate" (CUDA micro-benchmarks and hardware profiles)
// and "Validate" (the published measured runs). Each replaces the window's placeholder tab of the same
// name when there is one, else is added after the others; the Tools menu gets an entry for each.
namespace lp::ui {

class CalibrateTab;
class MainWindow;
class ScenarioDocument;
class ValidationTab;

struct ToolTabs {
    CalibrateTab* calibrate = nullptr;
    ValidationTab* validation = nullptr;
};

// Call once, after the MainWindow is built: installToolTabs(window, *window.document()).
ToolTabs installToolTabs(MainWindow& w, ScenarioDocument& doc);

} // namespace lp::ui

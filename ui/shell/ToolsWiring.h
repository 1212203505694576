#pragma once
// Puts the tool tabs into the main window: "Calibrate" (CUDA micro-benchmarks and hardware profiles)
// and "Validate" (the published measured runs). Each replaces the window's placeholder tab of the same
// name when there is one, else is added after the others; the Tools menu gets an entry for each.
namespace lp::ui {

class CalibrateTab;
class MainWindow;
class ScenarioDocument;
class ValidationTab;

// Call once, after the MainWindow is built: installToolTabs(window, *window.document()).
void installToolTabs(MainWindow& w, ScenarioDocument& doc);
// The installed tabs (children of the window's tab widget), or nullptr before installToolTabs.
CalibrateTab* calibrateTabOf(const MainWindow& w);
ValidationTab* validationTabOf(const MainWindow& w);

} // namespace lp::ui

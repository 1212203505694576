#pragma once
// The planner window's tabs, left to right: Plan, Timeline, Explore, One axis, Compare, Calibrate, Validate,
// Measured run. This is the one place that names them and sets their order. MainWindow adds Plan, the
// view its side panels explain; WindowTabs::install creates every other tab after it, in order, with
// the tool-bar button and Tools menu entries that lead to them.
#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

class QTabWidget;
class QWidget;

namespace lp::ui {

class AxisSweepView;
class CalibrateTab;
class CompareView;
class ExploreTab;
class MainWindow;
class MeasuredRunPanel;
class TimelineView;
class ValidationTab;

// In the tab bar's order.
enum class WindowTab { Plan, Timeline, Explore, OneAxis, Compare, Calibrate, Validate, MeasuredRun };
inline constexpr int kWindowTabCount = static_cast<int>(WindowTab::MeasuredRun) + 1;

class WindowTabs : public QObject {
    Q_OBJECT
public:
    // The title as the tab bar shows it, its & mnemonic included ("One a&xis"), and the tool tip.
    static QString title(WindowTab tab);
    static QString toolTip(WindowTab tab);
    // Every title without its &, in order ("Plan", "Explore", "One axis", ...).
    static QStringList names();
    // The tab called `name` as a person types it: a title without its &, in any case.
    static std::optional<WindowTab> fromName(const QString& name);
    // Appends `page` as `tab`; the tab bar holds exactly the tabs before it.
    static void append(QTabWidget& tabs, WindowTab tab, QWidget* page);

    // Creates every tab after Plan in `w`, in order, and what leads to them. Once per window.
    static WindowTabs& install(MainWindow& w);
    // The tabs installed in `w`, or nullptr before install().
    static WindowTabs* of(const MainWindow& w);

    QWidget* page(WindowTab tab) const;
    TimelineView* timeline() const { return m_layoutTabs.timeline; }
    ExploreTab* explore() const { return m_layoutTabs.explore; }
    AxisSweepView* oneAxis() const { return m_layoutTabs.oneAxis; }
    CompareView* compare() const { return m_layoutTabs.compare; }
    CalibrateTab* calibrate() const { return m_measurementTabs.calibrate; }
    ValidationTab* validation() const { return m_measurementTabs.validation; }
    MeasuredRunPanel* measuredRun() const { return m_measurementTabs.measuredRun; }

private:
    explicit WindowTabs(MainWindow& w);
    void createTabs();
    void connectExplore();
    void connectTimeline();
    void connectCalibrateAndValidate();
    void addToolsMenuEntries();
    void showPage(QWidget* page) const;
    void showStatus(const QString& message, int milliseconds) const;

    MainWindow& m_window;
    // The tabs that try other layouts of the scenario (connectExplore).
    struct {
        TimelineView* timeline = nullptr;
        ExploreTab* explore = nullptr;
        AxisSweepView* oneAxis = nullptr;
        CompareView* compare = nullptr;
    } m_layoutTabs;
    // The tabs that hold the plan against what GPUs and runs measured.
    struct {
        CalibrateTab* calibrate = nullptr;
        ValidationTab* validation = nullptr;
        MeasuredRunPanel* measuredRun = nullptr;
    } m_measurementTabs;
};

} // namespace lp::ui

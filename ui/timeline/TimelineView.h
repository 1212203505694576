#pragma once
// The Timeline tab: the current layout's step laid out in time, one lane per pipeline rank (TimelineLanes),
// with its legend, zoom (wheel, + / -, Fit) and pan (drag, the scroll bar), following the document live.
// "Compare with" draws a second layout under it in the same time scale: the current one with twice or half
// the accumulation, interleaving switched, another schedule, or a layout pinned in the Compare tab.
#include "core/estimate/Plan.h"
#include "core/model/Scenario.h"

#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QScrollBar;
class QToolButton;

namespace lp::ui {

class ChartLegend;
class ScenarioDocument;
class TimelineLanes;
class TimelineScale;

// A layout to compare with, as the Compare tab pinned it.
struct TimelineLayout {
    QString label; // "A: TP 8, PP 4, DP 2"
    core::Scenario scenario;
    core::Plan plan;
};

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(ScenarioDocument* doc, QWidget* parent = nullptr);

    TimelineLanes* lanes() const { return m_lanes; }
    TimelineLanes* comparedLanes() const { return m_compared; } // hidden while nothing is compared
    TimelineScale* scale() const { return m_scale; }
    QComboBox* compareChoice() const { return m_compareChoice; }
    QScrollBar* panBar() const { return m_panBar; }
    ChartLegend* legend() const { return m_legend; }
    QToolButton* fitButton() const { return m_fit; }
    bool isComparing() const; // a second layout is drawn

    // The layouts pinned in the Compare tab, offered under "Compare with".
    void setPinnedLayouts(std::vector<TimelineLayout> pinned);

signals:
    void explainRequested(const QString& key);
    void previewRequested(const QString& key); // pointed at; empty: the pointer left

private:
    // What "Compare with" offers; pinned layouts follow as kPinned + index.
    enum Comparison {
        kNone,
        kMoreAccumulation,
        kLessAccumulation,
        kInterleaving,
        kGPipe,
        kOneFOneB,
        kZeroBubble,
        kPinned = 100
    };
    QWidget* buildControls();
    void refreshLegend();
    void refresh();
    void refreshChoices();
    void refreshComparison(); // the second layout, then the legend for both
    void showComparison();
    void syncPanBar();
    // The current scenario changed as `choice` says; nullopt when the choice is the current layout itself.
    std::optional<core::Scenario> variant(int choice) const;

    ScenarioDocument* m_doc;
    TimelineScale* m_scale;
    TimelineLanes* m_lanes = nullptr;
    TimelineLanes* m_compared = nullptr;
    QLabel* m_compareProblem = nullptr;
    QComboBox* m_compareChoice = nullptr;
    QToolButton* m_fit = nullptr;
    QScrollBar* m_panBar = nullptr;
    ChartLegend* m_legend = nullptr;
    std::vector<TimelineLayout> m_pinned;
    bool m_syncing = false;
};

} // namespace lp::ui

#pragma once
// The step-time breakdown: one horizontal bar per time component (compute, recompute, TP/PP/CP/EP
// communication, bubble, exposed DP/sharding communication, optimizer, loader, stragglers,
// overhead), each in its palette colour, labelled with its time and share of the step, under the
// core's headline.
#include "core/estimate/Plan.h"
#include "ui/charts/ChartPanel.h"
#include "ui/widgets/Palette.h"

#include <array>
#include <vector>

class QBarCategoryAxis;
class QGraphicsSimpleTextItem;
class QBarSet;
class QHorizontalStackedBarSeries;
class QValueAxis;

namespace lp::ui {

class TimeChart : public ChartPanel {
    Q_OBJECT
public:
    explicit TimeChart(QWidget* parent = nullptr);
    void setPlan(const core::Plan& plan, bool stale);
    // Under the headline, the step time of measured runs like the plan (core::trustLine), the sentence on
    // hover; empty: nothing.
    void setTrust(const QString& line, const QString& sentence);

    // For tests: the components shown, top to bottom, and their bar values in milliseconds.
    std::vector<TimeComponent> shownComponents() const { return m_shown; }
    double shownMilliseconds(TimeComponent c) const;

protected:
    void applyTheme() override;

private:
    void connectBars();
    void rebuild();
    double rebuildBars(const std::vector<TimeComponent>& shown); // the longest bar, in ms
    void rebuildValueAxis(double longestMs);
    void placeValueLabels();
    void fitToWidth();
    QString m_longAxisTitle;
    core::Plan m_plan;
    bool m_stale = false;
    QString m_trustLine;
    QString m_trustSentence;
    std::vector<TimeComponent> m_shown;
    QHorizontalStackedBarSeries* m_series;
    std::array<QBarSet*, kTimeComponentCount> m_sets{};
    QBarCategoryAxis* m_axis;
    QValueAxis* m_valueAxis;
    std::array<QGraphicsSimpleTextItem*, kTimeComponentCount>
        m_valueLabels{}; // "412 ms · 43%" at each bar's end
    // Component names left of the bars, drawn here because Qt Charts elides category labels as soon
    // as the rows get a little tight.
    std::array<QGraphicsSimpleTextItem*, kTimeComponentCount> m_nameLabels{};
};

} // namespace lp::ui

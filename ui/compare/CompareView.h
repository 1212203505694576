#pragma once
// The Compare tab: two to four pinned layouts side by side (from the planner's current layout or
// from Explore): worst-stage memory as stacked bars, the step-time breakdown, and a table of the key
// figures and diagnostics with the differences highlighted. A pin keeps its scenario, profile and
// Plan as they were when pinned.
#include "ui/compare/CompareModel.h"
#include "ui/widgets/Format.h"

#include <QWidget>

#include <array>
#include <vector>

class QAbstractButton;
class QFrame;
class QBarCategoryAxis;
class QBarSet;
class QChart;
class QChartView;
class QBoxLayout;
class QGridLayout;
class QHorizontalStackedBarSeries;
class QLabel;
class QLayout;
class QLineSeries;
class QPushButton;
class QStackedBarSeries;
class QTableView;
class QValueAxis;

namespace lp::ui {

class ChartLegend;
class ScenarioDocument;

class CompareView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxPinned = 4;

    explicit CompareView(ScenarioDocument* doc, QWidget* parent = nullptr);

    void setUnit(MemoryUnit unit);

    // Pins a layout, evaluated with the document's current profile. Returns false (and says why
    // in the message line) when four are pinned, the same layout is already pinned, or it is invalid.
    // A new pin's card is highlighted and the message line (and the window's status bar) names it.
    // Pins keep their own model and cluster when File > New or Open replaces the scenario: each says
    // which it is of, and the message line says when they are not the planner's (docs/compare.md).
    bool pin(const core::Scenario& scenario, const QString& source);
    bool pinCurrent(); // the planner's current layout
    void unpin(int index);
    void clear();

    int pinnedCount() const { return static_cast<int>(m_pinned.size()); }
    const PinnedLayout& pinned(int index) const { return m_pinned[static_cast<std::size_t>(index)]; }

    // For tests and the screenshot.
    CompareModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QPushButton* pinCurrentButton() const { return m_pinCurrent; }
    QPushButton* unpinAllButton() const { return m_unpinAll; }
    QFrame* card(int index) const;
    int highlightedPin() const { return m_highlighted; } // the newest pin, -1 when none is
    ChartLegend* memoryLegend() const { return m_memoryLegend; }
    ChartLegend* timeLegend() const { return m_timeLegend; }
    QAbstractButton* unpinButton(int index) const;
    QLabel* messageLabel() const { return m_message; }
    QBarSet* memoryBarSet(core::MemoryComponent c) const { return m_memorySets[static_cast<std::size_t>(c)]; }
    QStringList memoryCategories() const;
    QStringList timeCategories() const;
    QChartView* memoryChartView() const { return m_memoryView; }
    QChartView* timeChartView() const { return m_timeView; }

signals:
    void pinnedChanged();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QLayout* buildHeader();
    void arrangeForWidth(); // cards in one row or two, charts side by side or one above the other
    QChartView* buildMemoryChart();
    QChartView* buildTimeChart();
    QWidget* chartWithLegend(QChartView* view, ChartLegend* legend);
    QTableView* buildTable();
    QFrame* buildCard(int index);
    void fitTableHeight();
    void onDocumentReplaced();
    void applyTheme();
    void rebuild();
    void rebuildCards();
    void rebuildMemory();
    void rebuildTime();
    void showMessage(const QString& text);
    void showStatus(const QString& text);
    QString pinsOfOtherModelsText() const;

    // One card per pinned layout, left to right (two to a row in a narrow page), each with its unpin button.
    struct Cards {
        QGridLayout* layout = nullptr;
        int perRow = kMaxPinned;
        std::vector<QFrame*> frames;
        std::vector<QAbstractButton*> unpinButtons;
    };

    ScenarioDocument* m_doc;
    std::vector<PinnedLayout> m_pinned;
    MemoryUnit m_unit = MemoryUnit::GiB;
    CompareModel* m_model;

    int m_highlighted = -1;

    QPushButton* m_pinCurrent = nullptr;
    QPushButton* m_unpinAll = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_empty = nullptr;
    QWidget* m_content = nullptr;
    Cards m_cards;
    QBoxLayout* m_charts = nullptr;
    QTableView* m_table = nullptr;

    QChart* m_memoryChart = nullptr;
    QChartView* m_memoryView = nullptr;
    QStackedBarSeries* m_memorySeries = nullptr;
    std::array<QBarSet*, 5> m_memorySets{};
    QBarCategoryAxis* m_memoryAxis = nullptr;
    QValueAxis* m_memoryValueAxis = nullptr;
    QValueAxis* m_memoryLineAxis = nullptr;
    std::vector<QLineSeries*> m_capacityLines;
    ChartLegend* m_memoryLegend = nullptr;

    QChart* m_timeChart = nullptr;
    QChartView* m_timeView = nullptr;
    QHorizontalStackedBarSeries* m_timeSeries = nullptr;
    std::vector<QBarSet*> m_timeSets;
    QBarCategoryAxis* m_timeAxis = nullptr;
    QValueAxis* m_timeValueAxis = nullptr;
    ChartLegend* m_timeLegend = nullptr;
};

} // namespace lp::ui

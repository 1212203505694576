#pragma once
// What the Plan tab's charts share: a bold title, a headline under it (a bold verdict and a sentence,
// both in red when the plan does not fit), the chart, and a restyle whenever the palette or the style
// changes. The sentences are the core's; a panel only shows them.
#include <QWidget>

class QChart;
class QChartView;
class QLabel;

namespace lp::ui {

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    QString headline() const; // the verdict and the sentence, as shown
    QColor headlineColor() const;
    QChartView* chartView() const { return m_view; }

signals:
    void explainRequested(const QString& key);
    void previewRequested(const QString& key); // pointed at; empty: the pointer left

protected:
    // `name` prefixes the headline's object names ("memory": memoryHeadline, memoryVerdict).
    ChartPanel(const QString& title, const QString& name, QWidget* parent);
    void changeEvent(QEvent* event) override;
    // Colours and fonts from the palette; derived panels call it once their chart is built.
    virtual void applyTheme() = 0;
    void setHeadline(const QString& verdict, const QString& text, const QColor& colour);
    void setHeadlineToolTip(const QString& tip);

    QChart* m_chart;
    QChartView* m_view;

private:
    QLabel* m_title;
    QLabel* m_verdict;
    QLabel* m_headline;
};

} // namespace lp::ui

#pragma once
// A chart's legend as widgets under the chart: a colour swatch and a name per series, in lines that
// wrap in a narrow window or with presentation mode's large fonts (Qt Charts' own legend elides its
// names to "..." instead). An entry with an explanation key explains its series on hover, click, focus or
// Enter, as the bars themselves do.
#include <QString>
#include <QWidget>

#include <vector>

class QColor;

namespace lp::ui {

class FlowLayout;

class ChartLegend : public QWidget {
    Q_OBJECT
public:
    enum class Mark { Box, Line, DashedLine, DottedLine };

    explicit ChartLegend(QWidget* parent = nullptr);

    // Adds the entry at `index` (the next one) or updates it in place.
    void setEntry(int index, const QColor& color, const QString& name, const QString& explainKey,
                  Mark mark = Mark::Box);
    // Keeps the first `count` entries (the series a chart shows now) and removes the others.
    void truncate(int count);
    int count() const { return static_cast<int>(m_entries.size()); }
    QWidget* entry(int index) const; // for tests
    QString entryName(int index) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

signals:
    void explainRequested(const QString& key);
    void previewRequested(const QString& key); // pointed at; empty: the pointer left

private:
    FlowLayout* m_flow;
    std::vector<QWidget*> m_entries;
};

} // namespace lp::ui
